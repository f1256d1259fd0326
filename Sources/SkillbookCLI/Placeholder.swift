// Module SkillbookCLI.
