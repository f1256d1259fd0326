import Foundation
import SkillbookCore
import SkillbookHost
import SkillbookRuntime
import Testing

@Suite struct RunEventJSONTests {
    @Test func eachEventIsOneObjectWithItsType() {
        #expect(
            RunEventJSON.line(.stepProgress(step: "many", completed: 3, total: 10, unit: .batches(items: 300, of: 1000)))
                == #"{"type":"step.progress","step":"many","completed":3,"total":10,"unit":"batch","items":300,"total_items":1000}"#)
        #expect(
            RunEventJSON.line(.stepProgress(step: "pages", completed: 1, total: 4, unit: .iterations))
                == #"{"type":"step.progress","step":"pages","completed":1,"total":4,"unit":"call"}"#)
        #expect(
            RunEventJSON.line(.stepProgress(step: "move", completed: 7, total: 9, unit: .skill))
                == #"{"type":"step.progress","step":"move","completed":7,"total":9,"unit":"item"}"#)
        #expect(
            RunEventJSON.line(.stepRetrying(step: "fetch", attempt: 2, error: "timed out", delay: 1.5))
                == #"{"type":"step.retrying","step":"fetch","attempt":2,"error":"timed out","delay":1.5}"#)
    }

    @Test func theFinishedEventCarriesStatusOutputsAndSteps() {
        let started = Date(timeIntervalSince1970: 1_796_033_700)
        var step = StepReport(id: "save", skill: "notes.create", status: .notCompensated)
        step.attempts = 1
        step.compensationError = "no undo"
        let result = RunResult(
            runID: "r1", playbook: "p", status: .rollbackIncomplete, interrupted: true, outputs: ["n": 1], steps: [step],
            error: "stop", started: started, finished: started.addingTimeInterval(1.23456))
        let object = RunEventJSON.object(.runFinished(result))
        #expect(object["type"] == "run.finished")
        #expect(object["status"] == "rollback_incomplete")
        #expect(object["interrupted"] == true)
        #expect(object["outputs"] == ["n": 1])
        #expect(object["error"] == "stop")
        #expect(object["duration"] == .double(1.235))
        #expect(
            object["steps"]
                == [["id": "save", "skill": "notes.create", "status": "not_compensated", "attempts": 1, "compensation_error": "no undo"]])
    }
}
