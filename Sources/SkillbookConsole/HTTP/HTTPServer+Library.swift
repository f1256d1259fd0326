internal import CMicroHTTPD

extension HTTPServer {
    /// Why GNU libmicrohttpd cannot be loaded, or `nil` when it loads (what the first server would
    /// do; `skillbook doctor` asks).
    public static var libraryProblem: String? {
        skb_mhd_load().map { String(cString: $0) }
    }
}
