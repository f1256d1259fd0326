// Module SkillbookStore.
