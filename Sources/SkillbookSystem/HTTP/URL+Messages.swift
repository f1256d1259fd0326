package import Foundation

extension URL {
    /// The address for messages: without a password, if it has one.
    package var displayString: String {
        guard password != nil, var parts = URLComponents(url: self, resolvingAgainstBaseURL: false) else {
            return absoluteString
        }
        parts.password = "***"
        return parts.string ?? absoluteString
    }

    /// Whether two addresses share scheme, host and port.
    package func sameOrigin(as other: URL) -> Bool {
        scheme?.lowercased() == other.scheme?.lowercased() && host?.lowercased() == other.host?.lowercased()
            && effectivePort == other.effectivePort
    }

    private var effectivePort: Int? {
        port ?? (scheme?.lowercased() == "https" ? 443 : scheme?.lowercased() == "http" ? 80 : nil)
    }
}

extension Double {
    /// Seconds for messages: `2s`, `0.5s`.
    package var secondsText: String {
        rounded() == self ? "\(Int(self))s" : "\(self)s"
    }
}
