// Module SkillbookSkills.
