import SkillbookCore

extension Value {
    /// An array element, for reading replies in tests; `nil` outside the array or for other values.
    subscript(index: Int) -> Value? {
        guard let items = arrayValue, items.indices.contains(index) else { return nil }
        return items[index]
    }
}
