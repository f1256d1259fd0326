/// The program's resource limits, stated once. Each is documented in the README's limits table
/// and tested at the limit and one past it.
public enum Limits {
    /// The longest key, in UTF-8 bytes of its quoted form, that `YAMLText` writes as an implicit
    /// (`key: value`) block-mapping key; a longer one is written in the explicit form (`? key`).
    /// libyaml gives up on an implicit key 1,024 characters after it starts; the margin keeps the
    /// `:` and a space inside that.
    public static let yamlImplicitKeyBytes = 1_000

    /// The longest name, in characters, that "did you mean" looks at: a longer word gets no
    /// suggestion, a longer candidate is never suggested.
    public static let suggestionNameLength = 256

    /// The longest line, in bytes, an MCP stdio channel reads as a message; a longer one is
    /// answered with a parse error and discarded up to its newline.
    public static let mcpLineBytes = 64 << 20

    /// The most steps (expression nodes evaluated) one evaluation of one `${{ … }}` may take; past
    /// it the evaluation stops with an error at the expression's `file:line:column`. A projection
    /// over 100,000 items costs a few hundred thousand; nested projections multiply.
    public static let expressionSteps = 1_000_000

    /// The deepest nesting of YAML collections (sequences and mappings, aliases' included) a file
    /// may have: `FILE:LINE:COL: error: YAML nesting deeper than 200 levels`.
    public static let yamlDepth = 200

    /// The most nodes the aliases of one YAML document may add in total (a "billion laughs"
    /// document is refused, not expanded).
    public static let yamlAliasNodes = 100_000

    /// The deepest nesting of arrays and objects in a JSON text (an MCP message, `--inputs`, a
    /// request body, a skill's output): one more is refused at its bracket, "arrays and objects nested
    /// deeper than 512 levels at offset N".
    public static let jsonDepth = 512

    /// The deepest expression tree of one `${{ … }}` (parentheses, operators, calls): past it,
    /// "expression is nested too deeply" at the offset, so checking and evaluating never recurse
    /// without bound.
    public static let expressionDepth = 100

    /// How deep sub-playbooks may call each other (the top playbook is level 1).
    public static let playbookNesting = 5

    /// The largest request body the console reads, in bytes (1 MiB); a larger one is answered
    /// 413 unread.
    public static let consoleBodyBytes = 1 << 20

    /// The request line and headers of one console connection, in bytes (32 KiB); libmicrohttpd
    /// refuses more.
    public static let consoleHeaderBytes = 32 << 10

    /// Characters in one console chat message; a longer one is answered 413.
    public static let chatMessageCharacters = 4_000

    /// The longest text, in UTF-8 bytes (1 MiB), the journal keeps of what a resume can work out
    /// again (a query's output, a step's, the run's outputs); a longer one is kept as its size and
    /// digest after its first KiB, marked, and a resume runs the query again (`JournalValueLimit`).
    /// Texts of 4 KiB and more are kept once whoever holds them (`JournalBlobs`).
    public static let journalTextBytes = 1 << 20

    /// The largest playbook, manifest, `skillbook.yaml` or inputs file read, in bytes (16 MiB);
    /// a larger one, or one that is not a regular file, is refused before it is read.
    public static let sourceFileBytes = 16 << 20
}
