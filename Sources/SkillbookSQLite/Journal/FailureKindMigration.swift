/// Migration 6 of `skillbook.sqlite`: a run keeps the kind of the failure that ended it
/// (`FailureKind`'s raw value, NULL when it did not fail); each step entry of `report` carries
/// its own as `failure_kind`.
enum FailureKindMigration {
    static let sql = """
        ALTER TABLE runs ADD COLUMN failure_kind TEXT;
        """
}
