// Module SkillbookRuntime.
