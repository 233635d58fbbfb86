/// A collection of titled records (`{"id": Int, "title": String}`) the sample API serves under
/// one path, for a feature written by `scripts/new-feature`; `scripts/sample_api.py` has the
/// same collection (its `collection_routes`), so the contract tests hold the two together.
///
/// Each collection starts from three seed records (`"<Singular> 1"` to `"<Singular> 3"`, ids 1 to
/// 3) and `POST /_control/reset` brings them back. With an `idPrefix` the ids are strings, the
/// number after the prefix (`"api-key-3"`), as a backend that names records with strings sends
/// them. Titles are validated like todo titles, an unknown or non-numeric id is a 404 (after the
/// bearer check), and an update reports an unknown id before a bad body, as the todo routes do.
struct SampleCollection: Sendable {
  /// The operations a collection serves.
  struct Operations: OptionSet, Sendable {
    let rawValue: Int
    /// `GET /{name}`: every record, ordered by id.
    static let list = Operations(rawValue: 1 << 0)
    /// `GET /{name}/{id}`.
    static let detail = Operations(rawValue: 1 << 1)
    /// `POST /{name}` with `{"title": …}`: 201 and the new record.
    static let create = Operations(rawValue: 1 << 2)
    /// `PATCH /{name}/{id}` with `{"title": …}`.
    static let update = Operations(rawValue: 1 << 3)
    /// `DELETE /{name}/{id}`: 204.
    static let delete = Operations(rawValue: 1 << 4)
  }

  /// One record as stored, and sent with its id as a number or, after an `idPrefix`, a string.
  struct Record: Encodable, Sendable, Hashable {
    var id: Int
    var title: String
    var idPrefix: String?

    private enum CodingKeys: String, CodingKey { case id, title }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      if let idPrefix {
        try container.encode("\(idPrefix)-\(id)", forKey: .id)
      } else {
        try container.encode(id, forKey: .id)
      }
      try container.encode(title, forKey: .title)
    }
  }

  /// The records of one collection, seeded on first use after a reset.
  struct Storage: Sendable {
    var records: [Int: Record]
    var nextID: Int

    init(singular: String, idPrefix: String?) {
      let seed = (1...3).map { Record(id: $0, title: "\(singular) \($0)", idPrefix: idPrefix) }
      records = Dictionary(uniqueKeysWithValues: seed.map { ($0.id, $0) })
      nextID = seed.count + 1
    }
  }

  /// The path segment, e.g. `widgets`.
  let name: String
  /// The seed titles' prefix, e.g. `Widget`.
  let singular: String
  let operations: Operations
  /// What a string id starts with, before `-` and the number; `nil` for ids that are numbers.
  var idPrefix: String? = nil

  /// The number of the record `request` names in its `{id}`, or `nil` when it names none.
  func number(in request: SampleRouteRequest) -> Int? {
    guard let idPrefix else { return request.id() }
    guard let text = request.parameters["id"], text.hasPrefix(idPrefix + "-") else { return nil }
    let number = SampleRouteRequest(
      request: request.request, parameters: ["id": String(text.dropFirst(idPrefix.count + 1))])
    return number.id()
  }
}

extension SampleAPI {
  /// The routes of `collection`, in the contract's order: list, create, detail, update, delete.
  func routes(for collection: SampleCollection) -> [SampleRoute] {
    let (path, item) = ("/\(collection.name)", "/\(collection.name)/{id}")
    var routes: [SampleRoute] = []
    if collection.operations.contains(.list) {
      routes.append(
        SampleRoute("GET", path, authenticated: true) { request in
          let search = TitleSearch(request.request)
          let records = self.withRecords(of: collection) { storage in
            storage.records.values.filter { search.admits($0.title) }.sorted { $0.id < $1.id }
          }
          return self.paged(records, for: request.request, at: path + "?" + search.linkFilter)
            ?? .json(200, records)
        })
    }
    if collection.operations.contains(.create) {
      routes.append(
        SampleRoute("POST", path, authenticated: true) { request in
          let title: String
          do throws(JSONObjectReader.Rejection) {
            title = try JSONObjectReader(request.request.body).title(required: true) ?? ""
          } catch {
            return .error(error.status, error.message)
          }
          let record = self.withRecords(of: collection) { storage in
            let record = SampleCollection.Record(
              id: storage.nextID, title: title, idPrefix: collection.idPrefix)
            storage.nextID += 1
            storage.records[record.id] = record
            return record
          }
          return .json(201, record)
        })
    }
    if collection.operations.contains(.detail) {
      routes.append(
        SampleRoute("GET", item, authenticated: true) { request in
          guard let id = collection.number(in: request),
            let record = self.withRecords(of: collection, { $0.records[id] })
          else {
            return .error(404, "not found")
          }
          return .json(200, record)
        })
    }
    if collection.operations.contains(.update) {
      routes.append(
        SampleRoute("PATCH", item, authenticated: true) { request in
          guard let id = collection.number(in: request),
            var record = self.withRecords(of: collection, { $0.records[id] })
          else {
            return .error(404, "not found")
          }
          do throws(JSONObjectReader.Rejection) {
            record.title = try JSONObjectReader(request.request.body).title(required: false) ?? record.title
          } catch {
            return .error(error.status, error.message)
          }
          self.withRecords(of: collection) { $0.records[id] = record }
          return .json(200, record)
        })
    }
    if collection.operations.contains(.delete) {
      routes.append(
        SampleRoute("DELETE", item, authenticated: true) { request in
          guard let id = collection.number(in: request),
            self.withRecords(of: collection, { $0.records.removeValue(forKey: id) }) != nil
          else { return .error(404, "not found") }
          return InProcessResponse(status: 204)
        })
    }
    return routes
  }

  private func withRecords<Result>(
    of collection: SampleCollection,
    _ body: (inout SampleCollection.Storage) -> Result
  ) -> Result {
    state.withLock { state in
      var storage =
        state.collections[collection.name]
        ?? SampleCollection.Storage(singular: collection.singular, idPrefix: collection.idPrefix)
      defer { state.collections[collection.name] = storage }
      return body(&storage)
    }
  }
}
