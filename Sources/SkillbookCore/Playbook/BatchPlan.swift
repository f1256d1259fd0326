/// Which list parameter of a step is split into batches, and how many items go in each.
///
/// A step batches when a list parameter with `maxItems` is mapped from an expression (its length
/// is known only at run time) or from a written list longer than the limit, or when `batch:` says so.
/// A batched step's output always has the batched shape — `{ batches: […] }` plus each array field
/// of the skill's output concatenated — whatever the run-time length, so mappings type-check once.
public struct BatchDriver: Sendable, Hashable {
    public var parameter: String
    /// Items per call.
    public var size: Int

    public init(parameter: String, size: Int) {
        self.parameter = parameter
        self.size = size
    }
}

extension PlaybookStep {
    /// The batching of this step for `skill`, or a message when it is ambiguous or impossible.
    public func batchDriver(for skill: SkillDescriptor) -> Result<BatchDriver?, Diagnostic> {
        let parameters = skill.parameters
        func limit(of name: String) -> Int? {
            guard let schema = parameters.property(name), schema.type == .array else { return nil }
            return [schema.maxItems, batch?.size].compactMap { $0 }.min()
        }
        if let over = batch?.over {
            guard let mapping = with.first(where: { $0.name == over }) else {
                return .failure(
                    .error("step '\(id)' batch.over names '\(over)', which is not one of its parameters", at: batch!.location))
            }
            guard let size = limit(of: over) else {
                return .failure(
                    .error(
                        "step '\(id)' cannot batch over '\(over)': it needs a list parameter with maxItems or batch.size",
                        at: mapping.keyLocation))
            }
            return .success(BatchDriver(parameter: over, size: size))
        }
        var candidates: [BatchDriver] = []
        for mapping in with {
            guard let size = limit(of: mapping.name) else { continue }
            switch mapping.value.content {
            case .literal(.array(let items)) where items.count <= size: continue
            case .array(let items) where items.count <= size: continue
            case .literal(let value) where value.arrayValue == nil: continue
            default: candidates.append(BatchDriver(parameter: mapping.name, size: size))
            }
        }
        if candidates.count > 1 {
            let names = candidates.map { "'\($0.parameter)'" }.joined(separator: " and ")
            return .failure(
                .error("step '\(id)' could batch over \(names); name one with batch.over", at: withLocation))
        }
        if candidates.isEmpty, let batch {
            return .failure(
                .error(
                    "step '\(id)' has 'batch' but no list parameter of skill '\(skill.id)' with maxItems is mapped",
                    at: batch.location))
        }
        return .success(candidates.first)
    }
}

extension ExprType {
    /// The output type of a batched call: `batches` plus each array field concatenated.
    public static func batched(_ output: ExprType) -> ExprType {
        var fields = [ObjectField(name: "batches", type: .array(output))]
        if case .object(let known?) = output {
            fields += known.filter { if case .array = $0.type { true } else { false } }
        }
        return .object(fields: fields)
    }
}

extension Value {
    /// Merges per-batch outputs: `batches` plus each array field concatenated, in batch order.
    public static func mergedBatches(_ outputs: [Value]) -> Value {
        var merged = ValueObject()
        merged["batches"] = .array(outputs)
        var arrays: [(key: String, items: [Value])] = []
        for output in outputs {
            guard let object = output.objectValue else { continue }
            for (key, value) in object {
                guard case .array(let items) = value else { continue }
                if let index = arrays.firstIndex(where: { $0.key == key }) {
                    arrays[index].items += items
                } else {
                    arrays.append((key, items))
                }
            }
        }
        for (key, items) in arrays { merged[key] = .array(items) }
        return .object(merged)
    }
}

extension Schema {
    /// The same schema without `maxItems`: a batched parameter may be longer than one call takes.
    public func withoutMaxItems() -> Schema {
        Schema(
            type: type, description: description, defaultValue: defaultValue, enumValues: enumValues, minimum: minimum,
            maximum: maximum, minLength: minLength, maxLength: maxLength, pattern: pattern, format: format, items: items,
            minItems: minItems, maxItems: nil, properties: properties, required: required,
            additionalProperties: additionalProperties, examples: examples, secret: secret)
    }
}
