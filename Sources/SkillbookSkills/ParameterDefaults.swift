import SkillbookCore

extension ValueObject {
    /// These parameters with every absent (or null) top-level property that declares a `default`
    /// in `schema` filled in with it. The engine validates parameters but may not apply defaults.
    func applyingDefaults(of schema: Schema) -> ValueObject {
        var result = self
        for (name, property) in schema.properties {
            if let defaultValue = property.defaultValue, result[name] == nil || result[name] == .null {
                result[name] = defaultValue
            }
        }
        return result
    }
}
