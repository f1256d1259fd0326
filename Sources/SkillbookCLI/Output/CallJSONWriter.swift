import Foundation
import SkillbookCore
import SkillbookHost

/// Writes a call attempt as `JSONText.encode(.object(RunTimelineJSON.call(call)), pretty: true,
/// indent: 2)` writes it decoded, straight into a page's bytes: no dictionary and no string per
/// field (a third of the time of a big run's export), the parameters and output copied at their
/// indentation when stored canonical (`StoredValue`), and the quoted step and skill of the call
/// before reused (a foreach step's items share them).
struct CallJSONWriter {
    private var step: (path: StepPath, quoted: String)?
    private var skill: (name: String, quoted: String)?

    mutating func append(_ call: StoredCall, to out: inout [UInt8]) {
        func member(_ key: StaticString) {
            Self.append("\n      \"", to: &out)
            out.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
            Self.append("\": ", to: &out)
        }
        func number(_ value: Int?) { Self.append(value.map(String.init) ?? "null", to: &out) }
        func text(_ value: String?) { Self.append(value.map(JSONText.quoted) ?? "null", to: &out) }
        /// A timestamp has nothing to escape.
        func time(_ date: Date?) {
            guard let date else { return Self.append("null", to: &out) }
            out.append(UInt8(ascii: "\""))
            Self.append(RunTimelineJSON.iso(date), to: &out)
            out.append(UInt8(ascii: "\""))
        }
        if step?.path != call.key.step { step = (call.key.step, JSONText.quoted(call.key.step.description)) }
        if skill?.name != call.skill { skill = (call.skill, JSONText.quoted(call.skill)) }
        Self.append("{", to: &out)
        member("step")
        Self.append(step?.quoted ?? "null", to: &out)
        out.append(UInt8(ascii: ","))
        member("iteration")
        number(call.key.iteration)
        out.append(UInt8(ascii: ","))
        member("batch")
        number(call.key.batch)
        out.append(UInt8(ascii: ","))
        member("skill")
        Self.append(skill?.quoted ?? "null", to: &out)
        out.append(UInt8(ascii: ","))
        member("attempt")
        number(call.attempt)
        out.append(UInt8(ascii: ","))
        member("parameters")
        call.parameters.pretty(indent: 3, into: &out)
        out.append(UInt8(ascii: ","))
        member("output")
        if let output = call.output { output.pretty(indent: 3, into: &out) } else { Self.append("null", to: &out) }
        out.append(UInt8(ascii: ","))
        member("error")
        text(call.error)
        out.append(UInt8(ascii: ","))
        member("started")
        time(call.started)
        out.append(UInt8(ascii: ","))
        member("finished")
        time(call.finished)
        out.append(UInt8(ascii: ","))
        member("uncertain")
        Self.append(call.isUncertain ? "true" : "false", to: &out)
        out.append(UInt8(ascii: ","))
        member("compensated")
        Self.append(call.compensated ? "true" : "false", to: &out)
        Self.append("\n    }", to: &out)
    }

    static func append(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { out.append(contentsOf: $0) }
    }
}
