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

    /// The largest playbook, manifest, `skillbook.yaml` or inputs file read, in bytes (16 MiB);
    /// a larger one, or one that is not a regular file, is refused before it is read.
    public static let sourceFileBytes = 16 << 20
}
