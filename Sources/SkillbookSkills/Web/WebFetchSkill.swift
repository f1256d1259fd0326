import SkillbookCore

/// `web.fetch`: reads an http or https address (GET or HEAD).
///
/// Reading is a query (safe in dry-run, idempotent); sending data with other methods is
/// `web.request`, an action that asks first — one skill cannot be both, because a descriptor's
/// kind and confirmation are fixed before the parameters are known.
struct WebFetchSkill: Skill {
    let environment: SkillEnvironment

    let descriptor = SkillDescriptor(
        id: "web.fetch",
        title: "Fetch a web address",
        summary: "Fetches an http or https address with GET (or HEAD) and returns { status, headers, text, truncated, "
            + "url }: the status, the response headers, the body as text (at most max_bytes, 5 MiB unless asked), "
            + "whether it was cut short, and the final address after at most 5 redirects. A status other than 2xx "
            + "fails unless fail_on_error is false. Other schemes (file:, ftp:) are refused. To send data (POST, PUT, "
            + "PATCH, DELETE) use web.request.",
        examples: [
            "fetch {url}", "grab {url}", "fetch the json at {url} with my bearer token", "download the page at {url}", "get the json from the api",
            "check whether the website is up", "check whether {url} is up", "抓取{url}", "下载网页{url}",
            "获取{url}的内容",
        ],
        tags: ["web", "read"],
        kind: .query,
        parameters: .object(
            [
                "url": .string("The http or https address to read.", minLength: 1, format: "uri"),
                "method": .string(
                    "GET (the default) or HEAD (headers only). For POST, PUT, PATCH or DELETE use web.request.",
                    enum: ["GET", "HEAD"], default: "GET"),
                "headers": WebSupport.headersParameter(),
                "token": WebSupport.tokenParameter,
                "timeout": WebSupport.timeoutParameter,
                "max_bytes": WebSupport.maxBytesParameter,
                "fail_on_error": WebSupport.failOnErrorParameter,
            ],
            required: ["url"]),
        output: WebSupport.outputSchema,
        timeout: 130,
        idempotent: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let parameters = parameters.applyingDefaults(of: descriptor.parameters)
        let method = parameters["method"]?.stringValue?.uppercased() ?? "GET"
        guard ["GET", "HEAD"].contains(method) else {
            throw SkillError("web.fetch only reads (GET or HEAD); use web.request to \(method)")
        }
        return try await WebSupport.call(parameters, method: method, body: nil, environment: environment)
    }
}
