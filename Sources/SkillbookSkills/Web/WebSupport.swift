import Foundation
import SkillbookSystem
import SkillbookCore

/// What the web skills share: checking addresses and headers, building requests, describing failures.
enum WebSupport {
    static let userAgent = "skillbook/0.1"

    /// The http or https address in `text`; anything else is refused with a message saying why.
    static func webURL(_ text: String) throws(SkillError) -> URL {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased() else {
            throw SkillError("'\(text)' is not a web address; give one like https://example.com/page")
        }
        guard scheme == "http" || scheme == "https" else {
            throw SkillError(
                "refusing '\(url.displayString)': only http and https addresses can be fetched (\(scheme): is not allowed)")
        }
        guard let host = url.host, !host.isEmpty else {
            throw SkillError("'\(url.displayString)' has no host; give an address like https://example.com/page")
        }
        return url
    }

    /// The `headers` parameter as header fields: every value a string, no line breaks anywhere.
    static func headers(_ value: Value?) throws(SkillError) -> [HTTPHeader] {
        guard let object = value?.objectValue else { return [] }
        var headers: [HTTPHeader] = []
        for (name, value) in object {
            guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
                throw SkillError("'\(name)' is not a valid header name (letters, digits and -_.!#$%&'*+^`|~ only)")
            }
            let text: String
            switch value {
            case .string(let s): text = s
            case .int, .double, .bool: text = value.interpolatedText
            default: throw SkillError("header '\(name)' must be a string, got \(value.typeName)")
            }
            guard !text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                throw SkillError("header '\(name)' must not contain line breaks")
            }
            headers.append(HTTPHeader(name, text))
        }
        return headers
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        byte.isASCIIAlphanumeric || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }

    /// `headers` with a default for each of `defaults` not already given (names matched in any case).
    static func adding(_ defaults: [HTTPHeader], to headers: [HTTPHeader]) -> [HTTPHeader] {
        var result = headers
        for header in defaults
        where !headers.contains(where: { $0.name.caseInsensitiveCompare(header.name) == .orderedSame }) {
            result.append(header)
        }
        return result
    }

    /// Sends `request`, turning the client's failures into messages for people (with `redactor`
    /// applied); cancellation passes through.
    static func send(
        _ request: HTTPRequest, with client: any HTTPClient, redactor: Redactor = Redactor()
    ) async throws -> HTTPResponse {
        do {
            return try await client.send(request)
        } catch let error as HTTPClientError {
            throw SkillError(redactor.redact(error.message))
        } catch let error as SkillError {
            throw SkillError(redactor.redact(error.message))
        }
    }

    /// `GET http://…/missing returned 404 Not Found`, naming where redirects led when they did.
    static func statusMessage(_ request: HTTPRequest, _ response: HTTPResponse) -> String {
        var message = "\(request.method) \(request.url.displayString) returned \(response.statusLine)"
        if response.url != request.url { message += " (redirected to \(response.url.displayString))" }
        return message
    }

    /// The response's text: the charset from the Content-Type (for HTML also a `<meta>`), else UTF-8.
    static func text(of response: HTTPResponse) -> String {
        let media = MediaType(response.header("content-type"))
        return TextDecoding.decode(
            [UInt8](response.body), declared: media?.charset, html: media?.isHTML ?? false,
            truncated: response.truncated
        ).text
    }

    /// The output every raw web call returns.
    static func output(of response: HTTPResponse, redactor: Redactor) -> Value {
        var headers = ValueObject()
        for header in response.headers { headers[header.name] = .string(header.value) }
        let output: Value = [
            "status": .int(response.status),
            "headers": .object(headers),
            "text": .string(text(of: response)),
            "truncated": .bool(response.truncated),
            "url": .string(response.url.absoluteString),
        ]
        return redactor.redact(output)
    }

    static let outputSchema = Schema.object(
        [
            "status": .integer("The HTTP status of the final response, such as 200.", minimum: 100, maximum: 999),
            "headers": .freeObject("The response's header fields, names in lower case."),
            "text": .string(
                "The body as text (decoded with the charset the server declares, else as UTF-8); empty for HEAD."),
            "truncated": .boolean("Whether the body was longer than max_bytes and was cut there."),
            "url": .string("The address of the final response, after redirects.", format: "uri"),
        ],
        required: ["status", "headers", "text", "truncated", "url"])

    static func headersParameter(_ extra: String = "") -> Schema {
        Schema(
            type: .object,
            description: "Request header fields, name to string value (for example Accept: application/json)."
                + " Put credentials in token, not here: headers are not secret." + extra)
    }

    static let failOnErrorParameter = Schema.boolean(
        "Fail when the final status is not 2xx (the error names it); false returns any status.", default: true)

    static let tokenParameter = Schema.string(
        "A bearer token, sent as 'Authorization: Bearer TOKEN' (and dropped if a redirect leads to another "
            + "site). Kept secret: never shown in logs, journals or outputs.", minLength: 1, secret: true)

    static let timeoutParameter = Schema.number(
        "Seconds to wait for the whole exchange, redirects included.", minimum: 0.1, maximum: 120, default: 30)

    static let maxBytesParameter = Schema.integer(
        "Read at most this many bytes of the body; the rest is not downloaded.", minimum: 1, maximum: 20 << 20,
        default: HTTPRequest.defaultMaxBodyBytes)
}

extension WebSupport {
    /// A web.fetch or web.request call: checks, sends, and shapes the output.
    static func call(
        _ parameters: ValueObject, method: String, body: String?, environment: SkillEnvironment
    ) async throws -> Value {
        let url = try webURL(parameters["url"]?.stringValue ?? "")
        var headers = try Self.headers(parameters["headers"])
        var redactor = Redactor()
        if let token = parameters["token"]?.stringValue, !token.isEmpty {
            guard !headers.contains(where: { $0.name.lowercased() == "authorization" }) else {
                throw SkillError("give either token or an Authorization header, not both")
            }
            redactor.add(token)
            headers.append(HTTPHeader("Authorization", "Bearer \(token)"))
        }
        headers = adding([HTTPHeader("User-Agent", userAgent), HTTPHeader("Accept", "*/*")], to: headers)
        if let body {
            headers = adding([HTTPHeader("Content-Type", contentType(guessedFor: body))], to: headers)
        }
        let request = HTTPRequest(
            url: url, method: method, headers: headers, body: body.map { Data($0.utf8) },
            timeout: parameters["timeout"]?.doubleValue ?? 30,
            maxBodyBytes: parameters["max_bytes"]?.intValue ?? HTTPRequest.defaultMaxBodyBytes)
        let response = try await send(request, with: environment.http, redactor: redactor)
        if parameters["fail_on_error"]?.boolValue ?? true, !response.isSuccess {
            var message = statusMessage(request, response)
            if let detail = errorDetail(response) { message += ": " + detail }
            throw SkillError(redactor.redact(message))
        }
        return output(of: response, redactor: redactor)
    }

    /// `application/json` for a JSON object or array, else plain UTF-8 text.
    static func contentType(guessedFor body: String) -> String {
        let trimmed = body.trimmingCharacters(in: .whitespacesAndNewlines)
        if let first = trimmed.first, first == "{" || first == "[",
            (try? JSONSerialization.jsonObject(with: Data(trimmed.utf8))) != nil
        {
            return "application/json"
        }
        return "text/plain; charset=utf-8"
    }

    /// The start of an error response's body, when it is short text or JSON (what APIs explain with).
    static func errorDetail(_ response: HTTPResponse) -> String? {
        guard let media = MediaType(response.header("content-type")),
            media.isPlainText || media.type == "application/json" || media.type.hasSuffix("+json")
        else { return nil }
        let text = PageSummary.collapsed(text(of: response))
        return text.isEmpty ? nil : PageSummary.clipped(text, to: 200)
    }
}
