import Foundation
import SkillbookCore
import Testing

/// The secrets a conversation learns: added as it goes, shared by every holder, masked with
/// their forms.
@Suite struct SecretBookTests {
    @Test func aSecretAddedLaterIsMaskedByEveryHolderWithItsForms() {
        let book = SecretBook(secrets: ["env-Val1"])
        let holder = book
        #expect(holder.redact("a late-Val2 here") == "a late-Val2 here")
        book.add(["late-Val2", ""])
        #expect(holder.redact("a late-Val2 / LATE-VAL2 / \(Data("late-Val2".utf8).base64EncodedString()) / env-Val1") == "a *** / *** / *** / ***")
        #expect(holder.redact(["k": "late-val2"]) == ["k": "***"])
    }

    @Test func onlyWhatASchemaMarksSecretIsAdded() {
        let book = SecretBook()
        let schema = Schema(type: .object, properties: [("user", .string()), ("password", .string(secret: true))])
        book.addSecrets(in: ["user": "alice-plain", "password": "hunter-22"], schema: schema)
        book.addSecrets(in: "not-a-secret", schema: .string())
        #expect(book.redact("alice-plain hunter-22 not-a-secret") == "alice-plain *** not-a-secret")
    }
}
