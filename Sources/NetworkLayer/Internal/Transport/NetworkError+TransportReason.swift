import Foundation

extension NetworkError {
  /// What a `URLError.Code` raw value means, in the words a person would use.
  static func transportReason(code: Int) -> String {
    transportReasons[code] ?? "network failure"
  }

  private static let transportReasons: [Int: String] = [
    URLError.Code.unknown.rawValue: "unknown network failure",
    URLError.Code.cancelled.rawValue: "cancelled",
    URLError.Code.badURL.rawValue: "bad URL",
    URLError.Code.timedOut.rawValue: "timed out",
    URLError.Code.unsupportedURL.rawValue: "unsupported URL",
    URLError.Code.cannotFindHost.rawValue: "host not found",
    URLError.Code.cannotConnectToHost.rawValue: "connection refused: cannot connect to the host",
    URLError.Code.networkConnectionLost.rawValue: "connection lost",
    URLError.Code.dnsLookupFailed.rawValue: "DNS lookup failed",
    URLError.Code.httpTooManyRedirects.rawValue: "too many redirects",
    URLError.Code.resourceUnavailable.rawValue: "resource unavailable",
    URLError.Code.notConnectedToInternet.rawValue: "not connected to the internet",
    URLError.Code.redirectToNonExistentLocation.rawValue: "redirect to a location that does not exist",
    URLError.Code.badServerResponse.rawValue: "connection closed before a valid response",
    URLError.Code.userCancelledAuthentication.rawValue: "authentication cancelled",
    URLError.Code.userAuthenticationRequired.rawValue: "authentication required",
    URLError.Code.zeroByteResource.rawValue: "empty resource",
    URLError.Code.cannotDecodeRawData.rawValue: "cannot decode the raw data",
    URLError.Code.cannotDecodeContentData.rawValue: "cannot decode the content",
    URLError.Code.cannotParseResponse.rawValue: "cannot parse the response",
    URLError.Code.internationalRoamingOff.rawValue: "international roaming is off",
    URLError.Code.callIsActive.rawValue: "a call is active",
    URLError.Code.dataNotAllowed.rawValue: "cellular data is not allowed",
    URLError.Code.requestBodyStreamExhausted.rawValue: "request body stream exhausted",
    URLError.Code.dataLengthExceedsMaximum.rawValue: "response larger than allowed",
    URLError.Code.secureConnectionFailed.rawValue: "secure connection failed",
    URLError.Code.serverCertificateHasBadDate.rawValue: "server certificate expired or not yet valid",
    URLError.Code.serverCertificateUntrusted.rawValue: "server certificate not trusted",
    URLError.Code.serverCertificateHasUnknownRoot.rawValue: "server certificate has an unknown root",
    URLError.Code.serverCertificateNotYetValid.rawValue: "server certificate not yet valid",
    URLError.Code.clientCertificateRejected.rawValue: "client certificate rejected",
    URLError.Code.clientCertificateRequired.rawValue: "client certificate required",
    URLError.Code.cannotLoadFromNetwork.rawValue: "cannot load from the network",
    URLError.Code.fileDoesNotExist.rawValue: "file does not exist",
  ]
}
