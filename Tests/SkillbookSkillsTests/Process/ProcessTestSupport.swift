import SkillbookSystem

/// The runner with this process's `PATH` and nothing else of its environment worth inheriting.
let testRunner = ProcessRunner()
