import Foundation
public import SkillbookCore

extension JournalRows {
    /// A page of call attempts' rows (the columns of a page of calls) with their parameters and
    /// outputs as stored (`StoredValue`). `decode(text, what)` reads a column the long way: the
    /// backend's decoding, which reads blobs back and reports a malformed text as the database's.
    /// The columns are looked up once for the page, and a step's path is parsed once for its run
    /// of consecutive rows.
    public static func storedCalls<Failure: Error>(
        _ rows: [Row], decode: (_ text: String, _ what: String) throws(Failure) -> Value, malformed: (_ what: String) -> Failure
    ) throws(Failure) -> [StoredCall] {
        guard let first = rows.first else { return [] }
        let column = CallColumns(first.columns)
        var calls: [StoredCall] = []
        calls.reserveCapacity(rows.count)
        var step: (text: String, path: StepPath)?
        for row in rows {
            guard let stepText = row[column.step].stringValue, let skill = row[column.skill].stringValue,
                let attempt = row[column.attempt].intValue, let started = row[column.started].doubleValue,
                let order = row[column.seq].intValue
            else { throw malformed("call") }
            if step?.text != stepText { step = (stepText, StepPath(parsing: stepText)) }
            guard let parametersText = row[column.parameters].stringValue, let path = step?.path else { throw malformed("call parameters") }
            let parameters = try stored(parametersText) { (text) throws(Failure) in try decode(text, "call parameters") }
            switch parameters {
            case .json(let text) where text.utf8.first != UInt8(ascii: "{"): throw malformed("call parameters")
            case .value(let value) where value.objectValue == nil: throw malformed("call parameters")
            default: break
            }
            var output: StoredValue?
            if let text = row[column.output].stringValue { output = try stored(text) { (text) throws(Failure) in try decode(text, "call output") } }
            calls.append(
                StoredCall(
                    key: CallKey(step: path, iteration: row[column.iteration].intValue, batch: row[column.batch].intValue), skill: skill,
                    attempt: attempt, parameters: parameters, output: output, error: row[column.error].stringValue,
                    started: Date(timeIntervalSince1970: started), finished: row[column.finished].doubleValue.map(Date.init(timeIntervalSince1970:)),
                    compensated: row[column.compensated].intValue == 1, order: order, outputMasked: row[column.masked].intValue == 1))
        }
        return calls
    }

    /// A value column's text as it is when it is canonical (`CanonicalJSON`) and refers to no blob
    /// (`JournalBlobs`); otherwise the value `decode` reads from it.
    public static func stored<Failure: Error>(_ text: String, decode: (String) throws(Failure) -> Value) throws(Failure) -> StoredValue {
        if !JournalBlobs.mayHoldReferences(text), CanonicalJSON.isCanonical(text) { return .json(text) }
        return .value(try decode(text))
    }
}

/// Where each column of a call's row is (`Row[index]` is `.null` for a column the query lacks).
private struct CallColumns {
    let step, iteration, batch, skill, attempt, parameters, output, error, started, finished, compensated, seq, masked: Int

    init(_ columns: [String]) {
        func index(_ name: String) -> Int { columns.firstIndex(of: name) ?? columns.count }
        step = index("step")
        iteration = index("iteration")
        batch = index("batch")
        skill = index("skill")
        attempt = index("attempt")
        parameters = index("parameters")
        output = index("output")
        error = index("error")
        started = index("started")
        finished = index("finished")
        compensated = index("compensated")
        seq = index("seq")
        masked = index("masked")
    }
}
