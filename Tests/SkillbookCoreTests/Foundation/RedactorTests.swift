import Foundation
import SkillbookCore
import Testing

@Suite struct RedactorTests {
    static let secret = "s3cr3t-FUZZ"

    func evaluate(_ text: String) throws -> (value: Value, redactor: Redactor) {
        let taint = SecretTaint(Redactor(secrets: [Self.secret]))
        var context = EvaluationContext(inputs: ["token": .string(Self.secret)])
        context.taint = taint
        let value = try TemplateString.parse(text).evaluate(in: context)
        return (value, taint.redactor)
    }

    /// The expressions fuzz harness's first finding (issue 25): an object key made from a secret
    /// was recorded as it was, since only values were masked.
    @Test func aKeyMadeFromASecretIsMasked() throws {
        let whole = try evaluate(#"${{ from_json('{"' + inputs.token + '": 1}') }}"#)
        #expect(whole.redactor.redact(whole.value) == ["***": 1])
        let derived = try evaluate(#"${{ from_json('{"' + inputs.token + '": 1, "' + replace(inputs.token, 'Z', 'q') + '": 2}') }}"#)
        #expect(derived.redactor.redact(derived.value) == ["***": 1, "***#2": 2], "two keys that mask alike stay apart")
        let listed = try evaluate(#"${{ keys(from_json('{"' + replace(inputs.token, '-', '+') + '": 1}')) }}"#)
        #expect(listed.redactor.redact(listed.value) == ["***"], "a key read back out is tainted too")
    }

    /// The expressions harness's finding of 2026-12-03 (issue 28): `replace(inputs.token, '-', X)`
    /// with X holding another secret's URL-encoded form was recorded as `s3cr3tFLATTEN%2C%20%28***_FUZZ`
    /// — the result held X whole, X was masked inside, so the result was not remembered, and the cut
    /// token's halves showed. A result stays partly visible only beside secret-bearing operands it
    /// holds whole, each masked whole.
    @Test func aCutSecretIsMaskedWhateverElseTheResultHolds() throws {
        let other = "Pr0v ided-K3y"
        func evaluate(_ text: String) throws -> String {
            let taint = SecretTaint(Redactor(secrets: [Self.secret, other]))
            var context = EvaluationContext(inputs: ["token": .string(Self.secret)])
            context.secrets = ["api": other]
            context.taint = taint
            let value = try TemplateString.parse(text).evaluate(in: context)
            return taint.redactor.redact(value).stringValue ?? ""
        }
        #expect(try evaluate("${{ replace(inputs.token, '-', 'FLATTEN%2C%20%28PR0V%20IDED-K3Y_') }}") == "***")
        #expect(try evaluate("${{ replace(inputs.token, '-', secret('api')) }}") == "***")
        // Operands held whole, each masked whole, still leave the rest visible.
        #expect(try evaluate("${{ 'k=' + inputs.token }}") == "k=***")
        #expect(try evaluate("${{ inputs.token + ' and ' + secret('api') }}") == "*** and ***")
    }

    /// `String.contains` compares characters: a secret followed by a combining mark or a joiner
    /// was not found, and a skill's output holding it was recorded with the secret's bytes.
    @Test func aSecretFollowedByACombiningMarkIsMasked() {
        let redactor = Redactor(secrets: ["abcd-efgh"])
        for text in ["xabcd-efgh\u{301}y", "abcd-efgh\u{200D}z", "\u{1F469}abcd-efgh\u{1F3FD}"] {
            let masked = redactor.redact(text)
            #expect(masked.utf8.firstRange(of: "abcd-efgh".utf8) == nil, "\(masked.debugDescription)")
            #expect(masked.contains("*"), "\(masked.debugDescription)")
            #expect(redactor.holdsSecret(text))
        }
        #expect(redactor.redact("no secret é here") == "no secret é here")
    }

    @Test func keysThatHoldNoSecretAreKept() {
        let redactor = Redactor(secrets: ["abcd-efgh"])
        let object: ValueObject = ["token": "abcd-efgh", "name": "Bearer abcd-efgh", "count": 3]
        #expect(redactor.redact(object) == ["token": "***", "name": "Bearer ***", "count": 3])
        #expect(Array(redactor.redact(object).keys) == ["token", "name", "count"])
    }
}
