import SkillbookCore

/// `web.request`: sends data to an http or https address (POST, PUT, PATCH, DELETE).
///
/// An action that changes something on another machine: it asks before running (`confirm`), like
/// every step that leaves the machine, and cannot be undone here. Reading is `web.fetch`.
struct WebRequestSkill: Skill {
    let environment: SkillEnvironment

    let descriptor = SkillDescriptor(
        id: "web.request",
        title: "Send a web request",
        summary: "Sends a request that changes something to an http or https address — POST (the default), PUT, "
            + "PATCH or DELETE, with a body, headers and a secret bearer token — and returns { status, headers, text, "
            + "truncated, url } like web.fetch. It leaves the machine, so it asks before running, and it cannot be "
            + "undone. A status other than 2xx fails unless fail_on_error is false. To only read, use web.fetch.",
        examples: [
            "post this json to the api", "post {body} to {url}", "send a post request to {url}", "call the api with put", "put {body} to {url}",
            "delete the resource at this url", "向{url}发送post请求", "调用接口",
        ],
        tags: ["web", "send"],
        kind: .action,
        confirm: true,
        parameters: .object(
            [
                "url": .string("The http or https address to send to.", minLength: 1, format: "uri"),
                "method": .string(
                    "POST (the default), PUT, PATCH or DELETE.", enum: ["POST", "PUT", "PATCH", "DELETE"],
                    default: "POST"),
                // A string, an object or an array; checked in `run` until schemas have union types.
                "body": Schema(
                    description: "The request body: an object or array (sent as JSON, application/json) or a "
                        + "string (sent as application/json when it is JSON text, else as UTF-8 text), unless a "
                        + "Content-Type header says otherwise."),
                "headers": WebSupport.headersParameter(),
                "token": WebSupport.tokenParameter,
                "timeout": WebSupport.timeoutParameter,
                "max_bytes": WebSupport.maxBytesParameter,
                "fail_on_error": WebSupport.failOnErrorParameter,
            ],
            required: ["url"]),
        output: WebSupport.outputSchema,
        timeout: 130)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let parameters = parameters.applyingDefaults(of: descriptor.parameters)
        let method = parameters["method"]?.stringValue?.uppercased() ?? "POST"
        guard ["POST", "PUT", "PATCH", "DELETE"].contains(method) else {
            throw SkillError("web.request sends POST, PUT, PATCH or DELETE; use web.fetch to \(method)")
        }
        return try await WebSupport.call(
            parameters, method: method, body: try Self.bodyText(parameters["body"]), environment: environment)
    }

    /// The body as text: a string as is, an object or array as JSON; nothing for null.
    static func bodyText(_ body: Value?) throws(SkillError) -> String? {
        switch body {
        case nil, .null?: nil
        case .string(let text)?: text
        case let value? where value.arrayValue != nil || value.objectValue != nil: JSONText.encode(value)
        case let value?:
            throw SkillError("web.request 'body' must be a string, an object or an array, got \(value.typeName)")
        }
    }
}
