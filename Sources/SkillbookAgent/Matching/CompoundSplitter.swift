import Foundation

/// Splits a request into clauses where it chains actions: "…, then …", "… and then …", "… and …",
/// "…? …", "…然后…", "…接着…", "…再…", "…并且…", and a comma in Chinese text. Whether the result is really
/// plan-shaped is decided by the matcher (each clause must be taken by a different target), so a
/// split in the middle of a title ("bread and milk") does no harm.
enum CompoundSplitter {
    static let english = [", and then ", " and then ", ", then ", " then ", "; ", "? ", " and also ", ", and ", " and "]
    static let chinese = ["然后", "接着", "之后", "并且", "再把", "再", "并"]

    /// Verbs that start an action of their own after "and", "then" or a comma.
    static let verbs: Set<String> = [
        "save", "send", "notify", "email", "mail", "text", "tell", "share", "upload", "post", "print", "delete",
        "remove", "move", "copy", "list", "show", "read", "write", "create", "add", "summarize", "summarise",
        "fetch", "download", "archive", "pack", "compress", "back", "backup", "tidy", "remind", "translate", "open",
        "run", "put", "store", "append", "mark", "sort", "filter", "extract", "join", "check", "make",
    ]

    /// Chinese verbs (and 把/将, which put the object before the verb) that start an action of
    /// their own after 然后, 再 or a comma: "…然后把 X 移进去", "…，再写入 X".
    static let chineseVerbs = [
        "把", "将", "保存", "存到", "写入", "写到", "追加", "复制", "移动", "删除", "列出", "读取", "下载", "总结", "提醒",
        "通知", "发", "打包", "压缩", "创建", "新建", "查看", "计算", "找出", "备份", "整理", "获取",
    ]

    /// Whether a clause starts with one of `verbs` (after "then", "also" or "please"), or with one
    /// of `chineseVerbs` (after 请 or 帮我).
    static func startsWithVerb(_ clause: String) -> Bool {
        var chinese = Substring(clause.trimmingCharacters(in: .whitespaces))
        for filler in ["请", "帮我", "再"] where chinese.hasPrefix(filler) { chinese = chinese.dropFirst(filler.count) }
        if chineseVerbs.contains(where: { chinese.hasPrefix($0) }) { return true }
        let words = clause.lowercased().split(whereSeparator: { !$0.isLetter })
        guard let first = words.first(where: { !["then", "also", "please", "just"].contains($0) }) else { return false }
        return verbs.contains(String(first))
    }

    static func clauses(of request: String) -> [String] {
        var pieces = [request]
        for marker in english {
            pieces = pieces.flatMap { split($0, at: marker) }
        }
        if request.contains(where: TextFolding.isCJK) {
            for marker in chinese + [",", "，"] {
                pieces = pieces.flatMap { split($0, at: marker) }
            }
        }
        return pieces.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Splits at `marker` without regard to case.
    private static func split(_ text: String, at marker: String) -> [String] {
        var out: [String] = []
        var rest = Substring(text)
        while let range = rest.range(of: marker, options: .caseInsensitive) {
            out.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        out.append(String(rest))
        return out
    }
}
