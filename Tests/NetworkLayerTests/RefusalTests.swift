import Foundation
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

@Suite("A refused request says why: the server's sentence and its field errors")
struct RefusalTests {
  private static func outcome(
    status: Int, body: String, contentType: String = "application/json", format: RefusalFormat = .standard
  ) async -> Result<[TestTodo], NetworkError> {
    let server = StubHandler.transport(status: status, body: body, contentType: contentType)
    var endpoint = Endpoint<[TestTodo]>(method: .post, path: ["todos"], body: .json(["title": ""]))
    endpoint.credentials = ["typed-secret-7731"]
    let client = URLSessionHTTPClient(baseURL: server.baseURL, transport: server, refusalFormat: format)
    return await client.outcome(endpoint)
  }

  /// The server's sentence in the bad status that `body`, naming no field, ends the call in;
  /// records an issue when the call ends otherwise.
  private static func sentenceOfBadStatus(
    _ status: Int, body: String, contentType: String = "application/json",
    sourceLocation: SourceLocation = #_sourceLocation
  ) async -> String? {
    let result = await outcome(status: status, body: body, contentType: contentType)
    guard case .failure(let failure) = result, case .badStatus(status, _) = failure else {
      Issue.record(
        "no field is named, so a bad status, not a refusal: \(result)", sourceLocation: sourceLocation)
      return nil
    }
    return failure.serverSentence
  }

  @Test(
    "a framework's field-error body becomes field errors by name, with its sentence", arguments: [400, 422])
  func frameworkShape(status: Int) async {
    let body = #"{"title": ["This field may not be blank."], "non_field_errors": ["Check the form."]}"#
    #expect(
      await Self.outcome(status: status, body: body)
        == .failure(
          .refused(
            status: status, message: "Check the form.",
            fieldErrors: ["title": ["This field may not be blank."]])))
  }

  @Test("problem details give their detail as the sentence and their per-field errors, in each common form")
  func problemDetails() async {
    let pointers =
      ##"{"type":"about:blank","title":"Invalid","detail":"The todo is invalid.","errors":[{"pointer":"#/title","detail":"must not be blank"}]}"##
    #expect(
      await Self.outcome(status: 422, body: pointers, contentType: "application/problem+json")
        == .failure(
          .refused(
            status: 422, message: "The todo is invalid.", fieldErrors: ["title": ["must not be blank"]])))
    let params =
      #"{"title":"Your request parameters didn't validate.","invalid-params":[{"name":"age","reason":"must be a positive integer"}]}"#
    #expect(
      await Self.outcome(status: 400, body: params, contentType: "application/problem+json; charset=utf-8")
        == .failure(
          .refused(
            status: 400, message: "Your request parameters didn't validate.",
            fieldErrors: ["age": ["must be a positive integer"]])))
    // An extension member called `error` is not an envelope in problem details.
    let extended =
      #"{"title":"Invalid","detail":"The todo is invalid.","error":{"code":"E42"},"errors":{"title":["is blank"]}}"#
    #expect(
      await Self.outcome(status: 400, body: extended, contentType: "application/problem+json")
        == .failure(
          .refused(status: 400, message: "The todo is invalid.", fieldErrors: ["title": ["is blank"]])))
    let byField = #"{"title":"Conflict","errors":{"title":["is taken"]}}"#
    #expect(
      await Self.outcome(status: 409, body: byField, contentType: "application/problem+json")
        == .failure(.refused(status: 409, message: "Conflict", fieldErrors: ["title": ["is taken"]])))
  }

  @Test("JSON:API errors give a field error for each attribute their source points at")
  func jsonAPIErrors() async {
    let body =
      #"{"errors":[{"status":"422","source":{"pointer":"/data/attributes/title"},"title":"Invalid Attribute","detail":"can't be blank"},{"source":{"pointer":"/data/attributes/title"},"detail":"is too short"},{"source":{"parameter":"due"},"detail":"is not a date"}]}"#
    #expect(
      await Self.outcome(status: 422, body: body, contentType: "application/vnd.api+json")
        == .failure(
          .refused(
            status: 422, message: nil,
            fieldErrors: ["title": ["can't be blank", "is too short"], "due": ["is not a date"]])))
  }

  @Test("Spring's binding errors give their default message for each field, and never the value rejected")
  func springBindingErrors() async {
    let body =
      #"{"timestamp":"2026-11-27T15:00:00.000+00:00","status":400,"error":"Bad Request","message":"Validation failed for object='todo'. Error count: 2","errors":[{"codes":["NotBlank.todo.title"],"defaultMessage":"must not be blank","objectName":"todo","field":"title","rejectedValue":"","code":"NotBlank"},{"defaultMessage":"size must be between 12 and 64","field":"password","rejectedValue":"hunter2-echo","code":"Size"}],"path":"/todos"}"#
    let result = await Self.outcome(status: 400, body: body)
    #expect(
      result
        == .failure(
          .refused(
            status: 400, message: "Validation failed for object='todo'. Error count: 2",
            fieldErrors: ["title": ["must not be blank"], "password": ["size must be between 12 and 64"]])))
    #expect(!String(describing: result).contains("hunter2-echo"))
  }

  @Test(
    "nested field errors give a message for each dotted path, without the request location webargs files them under"
  )
  func nestedFieldErrors() async {
    // flask-smorest (webargs and marshmallow), as it answers a JSON body that fails its schema.
    let smorest =
      #"{"code":422,"errors":{"json":{"title":["Length must be between 1 and 80."],"owner":{"email":["Not a valid email address."]},"tags":{"1":["Not a valid string."]}},"query":{"page":["Must be greater than or equal to 1."]}},"status":"Unprocessable Entity"}"#
    #expect(
      await Self.outcome(status: 422, body: smorest)
        == .failure(
          .refused(
            status: 422, message: nil,
            fieldErrors: [
              "title": ["Length must be between 1 and 80."], "owner.email": ["Not a valid email address."],
              "tags.1": ["Not a valid string."], "page": ["Must be greater than or equal to 1."],
            ])))
    // Problem details whose `errors` nest, a list of objects among them.
    let problem =
      #"{"title":"Invalid","errors":{"address":{"city":"is required"},"items":[{},{"name":["must not be blank"]}]}}"#
    #expect(
      await Self.outcome(status: 400, body: problem, contentType: "application/problem+json")
        == .failure(
          .refused(
            status: 400, message: "Invalid",
            fieldErrors: ["address.city": ["is required"], "items.1.name": ["must not be blank"]])))
  }

  @Test(
    "marshmallow's errors filed under message, as Flask-AppBuilder and Superset answer, give a message for each field; NestJS's list of texts there stays the sentence"
  )
  func fieldErrorsUnderMessage() async {
    // Flask-AppBuilder 5.3's model API, as it answers a body missing a required field.
    let appBuilder =
      #"{"message":{"title":["Missing data for required field."],"owner":{"email":["Not a valid email."]}}}"#
    #expect(
      await Self.outcome(status: 422, body: appBuilder)
        == .failure(
          .refused(
            status: 422, message: nil,
            fieldErrors: [
              "title": ["Missing data for required field."], "owner.email": ["Not a valid email."],
            ])))
    // NestJS lists its messages under `message`, naming no field: still the sentence of a bad status.
    let nest = #"{"message":["title should not be empty"],"error":"Bad Request","statusCode":400}"#
    #expect(await Self.sentenceOfBadStatus(400, body: nest) == "title should not be empty")
  }

  @Test(
    "PocketBase's errors, filed under data as a code and a message at each field's path, give a message for each field; other data names none"
  )
  func codedFieldErrorsUnderData() async {
    // PocketBase 0.40's answer to a record with a blank title and a collection setting too low.
    let pocketBase =
      #"{"data":{"title":{"code":"validation_required","message":"Cannot be blank."},"authToken":{"duration":{"code":"validation_min_greater_equal_than_required","message":"Must be no less than 10.","params":{"threshold":10}}}},"message":"Failed to create record.","status":400}"#
    #expect(
      await Self.outcome(status: 400, body: pocketBase)
        == .failure(
          .refused(
            status: 400, message: "Failed to create record.",
            fieldErrors: ["title": ["Cannot be blank."], "authToken.duration": ["Must be no less than 10."]]))
    )
    // Its refusal that names no field, and a body whose data is anything else, stay bad statuses.
    let signIn = #"{"data":{},"message":"Failed to authenticate.","status":400}"#
    #expect(await Self.sentenceOfBadStatus(400, body: signIn) == "Failed to authenticate.")
    let other = #"{"data":{"id":5,"note":{"message":"kept as it was"}},"message":"Could not save the note."}"#
    #expect(await Self.sentenceOfBadStatus(400, body: other) == "Could not save the note.")
  }

  @Test("Symfony's and API Platform's violations give a message for each property path")
  func symfonyViolations() async {
    let symfony =
      #"{"type":"https://symfony.com/errors/validation","title":"Validation Failed","detail":"title: This value should not be blank.","violations":[{"propertyPath":"title","title":"This value should not be blank.","template":"This value should not be blank.","type":"urn:uuid:c1051bb4-d103-4f74-8988-acbcafc7fdc3"},{"propertyPath":"dueDate","title":"This value is not a valid date."}]}"#
    #expect(
      await Self.outcome(status: 422, body: symfony, contentType: "application/problem+json")
        == .failure(
          .refused(
            status: 422, message: "title: This value should not be blank.",
            fieldErrors: [
              "title": ["This value should not be blank."], "dueDate": ["This value is not a valid date."],
            ])))
    let apiPlatform =
      #"{"@type":"ConstraintViolationList","hydra:title":"An error occurred","violations":[{"propertyPath":"title","message":"This value should not be blank.","code":"c1051bb4-d103-4f74-8988-acbcafc7fdc3"}]}"#
    #expect(
      await Self.outcome(status: 422, body: apiPlatform, contentType: "application/ld+json")
        == .failure(
          .refused(status: 422, message: nil, fieldErrors: ["title": ["This value should not be blank."]])))
  }

  @Test(
    "Zod's flattened errors and its issues give a message for each field, and its form errors the sentence")
  func zodErrors() async {
    let flattened =
      #"{"formErrors":["Either a title or a note is needed."],"fieldErrors":{"title":["String must contain at least 1 character(s)"],"dueDate":["Invalid date"]}}"#
    #expect(
      await Self.outcome(status: 400, body: flattened)
        == .failure(
          .refused(
            status: 400, message: "Either a title or a note is needed.",
            fieldErrors: [
              "title": ["String must contain at least 1 character(s)"], "dueDate": ["Invalid date"],
            ])))
    let issues =
      #"{"issues":[{"code":"too_small","minimum":1,"type":"string","inclusive":true,"exact":false,"message":"String must contain at least 1 character(s)","path":["title"]},{"code":"invalid_type","expected":"string","received":"undefined","path":["owner","name"],"message":"Required"}],"name":"ZodError"}"#
    #expect(
      await Self.outcome(status: 400, body: issues)
        == .failure(
          .refused(
            status: 400, message: nil,
            fieldErrors: [
              "title": ["String must contain at least 1 character(s)"], "owner.name": ["Required"],
            ])))
  }

  @Test("FastAPI's and express-validator's error lists give a message for each field they locate")
  func locatedErrorLists() async {
    let fastAPI =
      #"{"detail":[{"type":"missing","loc":["body","title"],"msg":"Field required","input":{}},{"type":"string_too_short","loc":["body","owner","name"],"msg":"String should have at least 1 character","input":""},{"type":"int_parsing","loc":["query","limit"],"msg":"Input should be a valid integer","input":"ten"},{"loc":["body",{"not":"a name"}],"msg":"Ignored"},{"loc":["body","tags",2],"msg":"Too long"}]}"#
    #expect(
      await Self.outcome(status: 422, body: fastAPI)
        == .failure(
          .refused(
            status: 422, message: nil,
            fieldErrors: [
              "title": ["Field required"], "owner.name": ["String should have at least 1 character"],
              "limit": ["Input should be a valid integer"], "tags.2": ["Too long"],
            ])))
    let express =
      #"{"errors":[{"type":"field","value":"","msg":"Invalid value","path":"title","location":"body"}]}"#
    #expect(
      await Self.outcome(status: 400, body: express)
        == .failure(.refused(status: 400, message: nil, fieldErrors: ["title": ["Invalid value"]])))
  }

  @Test(
    "Litestar's validation errors give a message for each key its extra list names, and its detail the sentence"
  )
  func litestarExtra() async {
    // Litestar 2.25, as it answers a body and a query that fail validation.
    let litestar =
      #"{"status_code":400,"detail":"Validation failed for POST /todos","extra":[{"message":"Expected `str` of length >= 1","key":"title","source":"body"},{"message":"Expected `int` <= 10","key":"limit","source":"query"}]}"#
    #expect(
      await Self.outcome(status: 400, body: litestar)
        == .failure(
          .refused(
            status: 400, message: "Validation failed for POST /todos",
            fieldErrors: ["title": ["Expected `str` of length >= 1"], "limit": ["Expected `int` <= 10"]])))
    // An entry's `key` names its field only when nothing else does: here `field` does.
    let keyed = #"{"errors":[{"key":"errors.title.blank","field":"title","message":"can't be blank"}]}"#
    #expect(
      await Self.outcome(status: 422, body: keyed)
        == .failure(.refused(status: 422, message: nil, fieldErrors: ["title": ["can't be blank"]])))
    // An object under `extra` is no list of field errors.
    let traced = #"{"detail":"Title taken.","extra":{"request_id":"req-7"}}"#
    #expect(await Self.sentenceOfBadStatus(409, body: traced) == "Title taken.")
  }

  @Test(
    "an error wrapped in an error object is read inside it: a list of details, Stripe's param, Google's field violations, OData's targets, Strapi's paths"
  )
  func errorEnvelopes() async {
    let details =
      #"{"success":false,"error":{"code":"VALIDATION_FAILED","message":"Invalid input","details":[{"field":"title","message":"is required"}]}}"#
    #expect(
      await Self.outcome(status: 400, body: details)
        == .failure(.refused(status: 400, message: "Invalid input", fieldErrors: ["title": ["is required"]])))
    let stripe =
      #"{"error":{"type":"invalid_request_error","message":"Missing required param: title.","param":"title"}}"#
    #expect(
      await Self.outcome(status: 400, body: stripe)
        == .failure(
          .refused(
            status: 400, message: "Missing required param: title.",
            fieldErrors: ["title": ["Missing required param: title."]])))
    let google =
      #"{"error":{"code":400,"message":"Request contains an invalid argument.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"title","description":"must not be empty"}]}]}}"#
    #expect(
      await Self.outcome(status: 400, body: google)
        == .failure(
          .refused(
            status: 400, message: "Request contains an invalid argument.",
            fieldErrors: ["title": ["must not be empty"]])))
    let byField = #"{"error":{"message":"Title is required","fields":{"title":"is required"}}}"#
    #expect(
      await Self.outcome(status: 422, body: byField)
        == .failure(
          .refused(status: 422, message: "Title is required", fieldErrors: ["title": ["is required"]])))
    let odata =
      #"{"error":{"code":"BadArgument","message":"Multiple errors in ContactInfo data","target":"ContactInfo","details":[{"code":"NullValue","target":"PhoneNumber","message":"Phone number must not be null"},{"code":"MalformedValue","target":"Address","message":"Address is not valid"}]}}"#
    #expect(
      await Self.outcome(status: 400, body: odata)
        == .failure(
          .refused(
            status: 400, message: "Multiple errors in ContactInfo data",
            fieldErrors: [
              "ContactInfo": ["Multiple errors in ContactInfo data"],
              "PhoneNumber": ["Phone number must not be null"], "Address": ["Address is not valid"],
            ])))
    let strapi =
      #"{"data":null,"error":{"status":400,"name":"ValidationError","message":"2 errors occurred","details":{"errors":[{"path":["title"],"message":"title must be defined.","name":"ValidationError"},{"path":["owner","name"],"message":"name is too short","name":"ValidationError"}]}}}"#
    #expect(
      await Self.outcome(status: 400, body: strapi)
        == .failure(
          .refused(
            status: 400, message: "2 errors occurred",
            fieldErrors: ["title": ["title must be defined."], "owner.name": ["name is too short"]])))
    // An envelope that says nothing leaves the body around it to be read, as before.
    let beside = #"{"error":{"code":"E_VALIDATION"},"title":["This field may not be blank."]}"#
    #expect(
      await Self.outcome(status: 400, body: beside)
        == .failure(
          .refused(status: 400, message: nil, fieldErrors: ["title": ["This field may not be blank."]])))
    // Bare messages under `details` stay what they were before envelopes were read.
    let bare = #"{"message":"Invalid input","details":["title is required"]}"#
    #expect(
      await Self.outcome(status: 400, body: bare)
        == .failure(
          .refused(status: 400, message: "Invalid input", fieldErrors: ["details": ["title is required"]])))
    // An envelope that names no field is still a bad status, its sentence read from the excerpt.
    let sentenceOnly = #"{"error":{"code":"bad_request","message":"Invalid input"}}"#
    let result = await Self.outcome(status: 400, body: sentenceOnly)
    #expect(result == .failure(.badStatus(code: 400, bodyExcerpt: sentenceOnly)))
    if case .failure(let failure) = result { #expect(failure.serverSentence == "Invalid input") }
  }

  @Test(
    "an errors list that names no field gives its sentence: GraphQL's and Directus' message, JSON:API's detail, Rails' texts",
    arguments: [
      (
        401,
        #"{"errors":[{"message":"Invalid user credentials.","extensions":{"code":"INVALID_CREDENTIALS"}}]}"#,
        "Invalid user credentials."
      ),
      (
        403, #"{"errors":[{"status":"403","title":"Forbidden","detail":"Only owners may archive."}]}"#,
        "Only owners may archive."
      ),
      (
        422, #"{"errors":["Title can't be blank","Title is too short"]}"#,
        "Title can't be blank Title is too short"
      ),
    ])
  func sentenceOfAnErrorsList(status: Int, body: String, sentence: String) async {
    #expect(await Self.sentenceOfBadStatus(status, body: body) == sentence)
  }

  @Test(
    "a sentence is read under its key whatever the case and separators: ASP.NET Web API's Message, AWS Lambda's errorMessage",
    arguments: [
      (
        400,
        #"{"Message":"The request is invalid.","ModelState":{"todo.Title":["The Title field is required."]}}"#,
        "The request is invalid."
      ),
      (400, #"{"errorMessage":"Title is required","errorType":"ValidationError"}"#, "Title is required"),
      (
        403, #"{"Message":"User: anonymous is not authorized to perform: execute-api:Invoke"}"#,
        "User: anonymous is not authorized to perform: execute-api:Invoke"
      ),
    ])
  func sentenceUnderAnyCase(status: Int, body: String, sentence: String) async {
    #expect(await Self.sentenceOfBadStatus(status, body: body) == sentence)
  }

  @Test(
    "a one-line plain-text body is its sentence, as Go's http.Error writes one; an HTML page or a trace of several lines is none",
    arguments: [
      ("title must not be empty\n", "text/plain; charset=utf-8", "title must not be empty"),
      ("<html><body><h1>400 Bad Request</h1></body></html>", "text/html", nil),
      ("panic: runtime error\ngoroutine 1 [running]:\nmain.main()", "text/plain", nil),
    ] as [(String, String, String?)])
  func plainTextSentence(body: String, contentType: String, sentence: String?) async {
    #expect(await Self.sentenceOfBadStatus(400, body: body, contentType: contentType) == sentence)
  }

  @Test(
    "a sentence that only names its status says nothing: Go's status text, Spring Boot's error, a bare Forbidden",
    arguments: [
      (400, "Bad Request\n", "text/plain; charset=utf-8"),
      (
        409,
        #"{"timestamp":"2026-11-28T02:00:00.000+00:00","status":409,"error":"Conflict","message":"","path":"/todos"}"#,
        "application/json"
      ),
      (403, #"{"error":"Forbidden."}"#, "application/json"),
      (422, #"{"message":"Unprocessable Content"}"#, "application/json"),
    ])
  func reasonPhrasesAreNoSentence(status: Int, body: String, contentType: String) async {
    #expect(await Self.sentenceOfBadStatus(status, body: body, contentType: contentType) == nil)
  }

  @Test(
    "a detail that is an object gives its message or reason: FastAPI's HTTPException with a dict, FastAPI Users' refusal",
    arguments: [
      (
        400,
        #"{"detail":{"code":"REGISTER_INVALID_PASSWORD","reason":"Password should be at least 8 characters"}}"#,
        "Password should be at least 8 characters"
      ),
      (409, #"{"detail":{"message":"That title is taken.","todo_id":7}}"#, "That title is taken."),
      (400, #"{"detail":{"code":"LOGIN_USER_NOT_VERIFIED"}}"#, nil),
    ] as [(Int, String, String?)])
  func sentenceOfADetailObject(status: Int, body: String, sentence: String?) async {
    #expect(await Self.sentenceOfBadStatus(status, body: body) == sentence)
  }

  @Test(
    "a reason is the sentence when nothing says more: Vapor's error body, its status's phrase aside; Kubernetes' message before its reason",
    arguments: [
      (401, #"{"error":true,"reason":"Invalid email or password."}"#, "Invalid email or password."),
      (
        409, #"{"error":true,"reason":"A todo with this title already exists."}"#,
        "A todo with this title already exists."
      ),
      (404, #"{"error":true,"reason":"Not Found"}"#, nil),
      (
        400,
        #"{"error":true,"reason":"title is empty, email is not a valid email address, password is less than minimum of 8 character(s), name contains '-' (allowed: A-Z, a-z, 0-9)"}"#,
        "title is empty, email is not a valid email address, password is less than minimum of 8 character(s), name contains '-' (allowed: A-Z, a-z, 0-9)"
      ),
      (
        404,
        #"{"kind":"Status","apiVersion":"v1","status":"Failure","message":"todos \"7\" not found","reason":"NotFound","code":404}"#,
        #"todos "7" not found"#
      ),
    ] as [(Int, String, String?)])
  func reasonIsASentence(status: Int, body: String, sentence: String?) async {
    #expect(await Self.sentenceOfBadStatus(status, body: body) == sentence)
  }

  @Test(
    "a description says more than a title: Falcon's error body, whose title may be only its status line",
    arguments: [
      (
        401, #"{"title": "401 Unauthorized", "description": "Wrong email or password."}"#,
        "Wrong email or password."
      ),
      (
        409, #"{"title": "409 Conflict", "description": "A todo with this title already exists."}"#,
        "A todo with this title already exists."
      ),
      (
        400, #"{"title": "Missing parameter", "description": "The \"q\" parameter is required."}"#,
        #"The "q" parameter is required."#
      ),
      (400, #"{"title": "Request data failed validation"}"#, "Request data failed validation"),
      (
        400, #"{"description":"Bad Request","status":400,"message":"Title may not be blank."}"#,
        "Title may not be blank."
      ),
    ] as [(Int, String, String?)])
  func descriptionIsASentence(status: Int, body: String, sentence: String?) async {
    #expect(await Self.sentenceOfBadStatus(status, body: body) == sentence)
  }

  @Test(
    "a status line says nothing either: Falcon's bare title, aiohttp's text, Sanic's description",
    arguments: [
      (400, #"{"title": "400 Bad Request"}"#, "application/json"),
      (404, #"{"title": "404 Not Found"}"#, "application/json"),
      (400, "400: Bad Request", "text/plain; charset=utf-8"),
      (503, "503 - Service Unavailable\n", "text/plain"),
      (404, #"{"description":"Not Found","status":404}"#, "application/json"),
    ])
  func statusLinesAreNoSentence(status: Int, body: String, contentType: String) async {
    #expect(await Self.sentenceOfBadStatus(status, body: body, contentType: contentType) == nil)
  }

  @Test(
    "an errors object's detail is the sentence for the whole request, as Phoenix writes it; its status's phrase says nothing",
    arguments: [
      (401, #"{"errors":{"detail":"Invalid email or password"}}"#, "Invalid email or password"),
      (
        409, #"{"errors":{"detail":"A todo with this title already exists."}}"#,
        "A todo with this title already exists."
      ),
      (404, #"{"errors":{"detail":"Not Found"}}"#, nil),
      (400, #"{"errors":{"detail":"Bad Request"}}"#, nil),
    ] as [(Int, String, String?)])
  func phoenixDetailIsASentence(status: Int, body: String, sentence: String?) async {
    #expect(await Self.sentenceOfBadStatus(status, body: body) == sentence)
  }

  @Test("a Phoenix changeset's lists are fields beside that sentence, a field named detail among them")
  func phoenixChangesetFields() async {
    let beside = #"{"errors":{"detail":"Check the title.","title":["can't be blank"]}}"#
    #expect(
      await Self.outcome(status: 422, body: beside)
        == .failure(
          .refused(status: 422, message: "Check the title.", fieldErrors: ["title": ["can't be blank"]])))
    let named = #"{"errors":{"detail":["should be at most 500 character(s)"]}}"#
    #expect(
      await Self.outcome(status: 422, body: named)
        == .failure(
          .refused(status: 422, message: nil, fieldErrors: ["detail": ["should be at most 500 character(s)"]])
        ))
  }

  @Test(
    "a machine's code is no sentence: FastAPI Users' detail, a bare OAuth error, Firebase Auth's message; words still are",
    arguments: [
      (400, #"{"detail":"LOGIN_BAD_CREDENTIALS"}"#, nil),
      (401, #"{"error":"invalid_token"}"#, nil),
      (400, #"{"error":{"code":400,"message":"EMAIL_EXISTS","errors":[{"reason":"invalid"}]}}"#, nil),
      (409, #"{"detail":"EMAIL_TAKEN","message":"That email is taken."}"#, "That email is taken."),
      (400, #"{"message":"ユーザー名またはパスワードが違います"}"#, "ユーザー名またはパスワードが違います"),
      (410, #"{"message":"Expired"}"#, "Expired"),
    ] as [(Int, String, String?)])
  func codesAreNoSentence(status: Int, body: String, sentence: String?) async {
    #expect(await Self.sentenceOfBadStatus(status, body: body) == sentence)
  }

  @Test(
    "a blank text is no sentence: an empty message leaves the error beside it, and a refusal its default")
  func blankSentences() async {
    let empty = #"{"message":"","error":"A todo with this title already exists."}"#
    #expect(await Self.sentenceOfBadStatus(409, body: empty) == "A todo with this title already exists.")
    let listed = #"{"errors":[{"detail":"","title":"Edit conflict"}]}"#
    #expect(await Self.sentenceOfBadStatus(409, body: listed) == "Edit conflict")
    let fields = #"{"message":" ","errors":{"title":["must not be blank"]}}"#
    #expect(
      await Self.outcome(status: 422, body: fields)
        == .failure(.refused(status: 422, message: nil, fieldErrors: ["title": ["must not be blank"]])))
  }

  @Test(
    "a text is read without the blank lines and spaces around it: Pyramid's padded message, a padded code, a padded echo"
  )
  func paddedTexts() async {
    // Pyramid's JSON error pages (devpi's among them) end their message with blank lines.
    let pyramid =
      #"{"message": "There was a conflict.\n\nA todo with this title exists.\n\n\n", "code": "409 Conflict", "title": "Conflict"}"#
    #expect(
      await Self.sentenceOfBadStatus(409, body: pyramid)
        == "There was a conflict.\n\nA todo with this title exists.")
    #expect(await Self.sentenceOfBadStatus(409, body: #"{"message": " TITLE_TAKEN\n"}"#) == nil)
    let fields =
      #"{"message":"\n Check the form. ","title":["  must not be blank\n","\t"],"password":[" hunter2-echo\n"]}"#
    #expect(
      await Self.outcome(status: 422, body: fields)
        == .failure(
          .refused(
            status: 422, message: "Check the form.",
            fieldErrors: ["title": ["must not be blank"], "password": ["<redacted>"]])))
    // A format of the backend's own is held to the same: no blank sentence, no blank field error.
    let own =
      #"{"error":{"text":" \n","fields":[{"name":"title","why":" "},{"name":"title","why":"is too long\n"},{"name":"tag","why":""}]}}"#
    #expect(
      await Self.outcome(status: 422, body: own, format: Self.ownFormat)
        == .failure(.refused(status: 422, message: nil, fieldErrors: ["title": ["is too long"]])))
  }

  @Test("an error body too long for its excerpt still gives the sentence the excerpt holds whole")
  func sentenceOfACutBody() async throws {
    let stripe =
      #"{"error":{"code":"card_declined","decline_code":"insufficient_funds","doc_url":"https://stripe.com/docs/error-codes/card-declined","message":"Your card has insufficient funds \"today\".","request_log_url":"https://dashboard.stripe.com/test/logs/req_8Kq2?t=1764255600","type":"card_error"}}"#
    let result = await Self.outcome(status: 402, body: stripe)
    guard case .failure(let failure) = result, case .badStatus(402, let excerpt?) = failure else {
      Issue.record("expected a bad status with an excerpt, got \(result)")
      return
    }
    #expect(excerpt.hasSuffix("…"), "the excerpt is cut: \(excerpt)")
    #expect(failure.serverSentence == #"Your card has insufficient funds "today"."#)
    // A sentence the cut goes through is not guessed at.
    let cutInTheSentence = #"{"detail":""# + String(repeating: "long ", count: 60) + #""}"#
    let other = await Self.outcome(status: 403, body: cutInTheSentence)
    guard case .failure(let otherFailure) = other else {
      Issue.record("expected a failure, got \(other)")
      return
    }
    #expect(otherFailure.serverSentence == nil)
  }

  @Test("a body with no field errors, or a status that is not about the input, stays a bad status")
  func otherBodiesStayBadStatus() async {
    #expect(
      await Self.outcome(status: 400, body: #"{"detail":"nope"}"#)
        == .failure(.badStatus(code: 400, bodyExcerpt: #"{"detail":"nope"}"#)))
    let fields = #"{"title":["x y"]}"#
    #expect(
      await Self.outcome(status: 500, body: fields) == .failure(.badStatus(code: 500, bodyExcerpt: fields)))
  }

  @Test(
    "field errors never carry a secret: the request's own by value, an echoed token under a credential name at all"
  )
  func fieldErrorsAreRedacted() async {
    let body =
      #"{"title":["'typed-secret-7731' is not allowed."],"password":["hunter2-echo"],"refresh":["This token is too old."]}"#
    let result = await Self.outcome(status: 400, body: body)
    #expect(
      result
        == .failure(
          .refused(
            status: 400, message: nil,
            fieldErrors: [
              "title": ["'<redacted>' is not allowed."], "password": ["<redacted>"],
              "refresh": ["This token is too old."],
            ])))
    #expect(!String(describing: result).contains("hunter2-echo"))
  }

  /// A shape the standard format does not read: `{"error": {"text", "fields": [{"name", "why"}]}}`,
  /// sent with a 422.
  private static let ownFormat = RefusalFormat.json(OwnRefusal.self, statuses: [422]) { body in
    (body.error.text, Dictionary(grouping: body.error.fields, by: \.name).mapValues { $0.map(\.why) })
  }

  private struct OwnRefusal: Decodable {
    struct Problem: Decodable {
      struct Field: Decodable {
        var name: String
        var why: String
      }
      var text: String
      var fields: [Field]
    }
    var error: Problem
  }

  @Test(
    "a backend's own refusal format gives its sentence and field errors, scrubbed of secrets as the standard one's are"
  )
  func ownFormat() async {
    let body =
      #"{"error":{"text":"Not saved: 'typed-secret-7731' is taken.","fields":[{"name":"title","why":"is too long"},{"name":"title","why":"is not unique"},{"name":"apiKey","why":"sk-live-echo"}]}}"#
    #expect(
      await Self.outcome(status: 422, body: body, format: Self.ownFormat)
        == .failure(
          .refused(
            status: 422, message: "Not saved: '<redacted>' is taken.",
            fieldErrors: ["title": ["is too long", "is not unique"], "apiKey": ["<redacted>"]])))
    for (status, format) in [(422, RefusalFormat.standard), (500, Self.ownFormat)] {
      let result = await Self.outcome(status: status, body: body, format: format)
      guard case .failure(.badStatus(status, let excerpt?)) = result else {
        Issue.record("\(status): expected a bad status with an excerpt, got \(result)")
        continue
      }
      // The standard format reads none of it; and a status not about the input is never a refusal.
      #expect(!excerpt.contains("typed-secret-7731"))
    }
  }

  /// Stripe's shape: `{"error": {"message", "param"}}`, sent with a 402 when a card is declined.
  private static func cardFormat(statuses: Set<Int>) -> RefusalFormat {
    .json(CardRefusal.self, statuses: statuses) { body in
      (body.error.message, body.error.param.map { [$0: [body.error.message]] } ?? [:])
    }
  }

  private struct CardRefusal: Decodable {
    struct Problem: Decodable {
      var message: String
      var param: String?
    }
    var error: Problem
  }

  @Test("a format reads the statuses it names, and never a 401, which is the token's, or a server error")
  func formatStatuses() async {
    let body = #"{"error":{"message":"Your card was declined.","param":"card"}}"#
    #expect(
      await Self.outcome(status: 402, body: body, format: Self.cardFormat(statuses: [402]))
        == .failure(
          .refused(
            status: 402, message: "Your card was declined.",
            fieldErrors: ["card": ["Your card was declined."]])))
    // The default statuses do not include 402, and a format that names only 402 reads no 400.
    #expect(
      await Self.outcome(
        status: 402, body: body, format: Self.cardFormat(statuses: RefusalFormat.standard.statuses))
        == .failure(.badStatus(code: 402, bodyExcerpt: body)))
    #expect(
      await Self.outcome(status: 400, body: body, format: Self.cardFormat(statuses: [402]))
        == .failure(.badStatus(code: 400, bodyExcerpt: body)))
    // A 401 must stay a bad status for the auth interceptor to refresh the token on, and a 503 one
    // the retry policy can retry, whatever a format names.
    let greedy = Self.cardFormat(statuses: [401, 402, 503])
    #expect(greedy.statuses == [402])
    for status in [401, 503] {
      #expect(
        await Self.outcome(status: status, body: body, format: greedy)
          == .failure(.badStatus(code: status, bodyExcerpt: body)))
    }
  }
}
