import SkillbookCLI

await SkillbookCLI.main()
