public import SkillbookCore

/// The skills written in Swift that every skillbook has.
public enum BuiltinSkills {
    /// One instance of each built-in skill, sharing `environment`.
    public static func all(environment: SkillEnvironment) -> [any Skill] {
        [
            DebugEchoSkill(),
            DebugFailSkill(),
            DebugSleepSkill(),
            TextTemplateSkill(),
            NotesCreateSkill(environment: environment),
            NotesCreateManySkill(environment: environment),
            NotesDeleteSkill(environment: environment),
            NotesListSkill(environment: environment),
            FilesListSkill(environment: environment),
            FilesReadSkill(environment: environment),
            FilesWriteSkill(environment: environment),
            FilesMoveSkill(environment: environment),
            FilesCopySkill(environment: environment),
            FilesDeleteSkill(environment: environment),
            FilesMkdirSkill(environment: environment),
            ShellRunSkill(runner: environment.processes),
            RemindersCreateSkill(environment: environment),
            RemindersListSkill(environment: environment),
            RemindersCompleteSkill(environment: environment),
            RemindersDeleteSkill(environment: environment),
            TextExtractSkill(),
            TextJoinSkill(),
            DataFilterSkill(),
            DataSortSkill(),
            DataPickSkill(),
            WebFetchSkill(environment: environment),
            WebRequestSkill(environment: environment),
            WebSummarySkill(environment: environment),
            NotifySendSkill(environment: environment),
            MailSendSkill(environment: environment),
        ]
    }
}
