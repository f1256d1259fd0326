import SkillbookCore

/// The playbook format as JSON Schema (draft 2020-12); skill ids are listed so editors complete them.
enum PlaybookJSONSchema {
    static func make(skillIDs: [String]) -> Value {
        let duration: Value = [
            "description": "Seconds, or text such as 30s, 5m, 1h.",
            "anyOf": [["type": "number", "exclusiveMinimum": 0], ["type": "string", "pattern": "^[0-9.]+(ms|s|m|h|d)?$"]],
        ]
        // A retry delay may be 0 (retry at once); a timeout may not.
        let delay: Value = [
            "description": "Seconds before the second attempt, or text such as 500ms, 2s.",
            "anyOf": [["type": "number", "minimum": 0], ["type": "string", "pattern": "^[0-9.]+(ms|s|m|h|d)?$"]],
        ]
        let approval: Value = [
            "type": "object", "additionalProperties": false,
            "description": "How long a request for approval waits when nobody could confirm a step (default 24h); then it counts as declined.",
            // Positive, as the decoder wants it: a request that expires at once could never be approved.
            "properties": [
                "timeout": [
                    "description": "A positive duration such as 30m, 4h or 2d (seconds when a number).",
                    "anyOf": [["type": "number", "exclusiveMinimum": 0], ["type": "string", "pattern": "^(?=[0-9.]*[1-9])[0-9.]+(ms|s|m|h|d)?$"]],
                ]
            ],
        ]
        let onFailure: Value = [
            "description": "What happens when a step fails after its retries.",
            "enum": ["rollback", "stop", "continue"],
        ]
        let schemaKeyword: Value = [
            "type": "object",
            "properties": .object(
                ValueObject(
                    SchemaDecoder.keywords.map { keyword in
                        let sub: Value = ["anyOf": [["type": "boolean"], ["$ref": "#/$defs/parameterSchema"]]]
                        let types: Value = ["enum": .array((Schema.JSONType.allCases.map(\.rawValue) + ["any"]).map(Value.string))]
                        let schema: Value =
                            switch keyword {
                            case "type": ["anyOf": [types, ["type": "array", "items": types]]]
                            case "format": ["enum": .array(FormatCheck.knownFormats.sorted().map(Value.string))]
                            case "secret", "deprecated", "readOnly", "writeOnly": ["type": "boolean"]
                            case "minimum", "maximum": ["type": "number"]
                            case "access": ["enum": .array(Schema.PathAccess.allCases.map { .string($0.rawValue) })]
                            case "relativeTo": ["type": "string"]
                            case "minLength", "maxLength", "minItems", "maxItems": ["type": "integer", "minimum": 0]
                            case "required": ["type": "array", "items": ["type": "string"]]
                            case "enum", "examples": ["type": "array"]
                            case "description", "title", "pattern", "$schema", "$id", "$comment", "$ref": ["type": "string"]
                            case "items", "not", "propertyNames", "additionalProperties": sub
                            case "prefixItems", "allOf", "anyOf", "oneOf": ["type": "array", "items": sub]
                            case "properties", "patternProperties", "$defs": ["type": "object", "additionalProperties": sub]
                            case "dependentRequired": ["type": "object", "additionalProperties": ["type": "array", "items": ["type": "string"]]]
                            default: [:]
                            }
                        return (keyword, schema)
                    })),
            "additionalProperties": false,
        ]
        let stepProperties: ValueObject = [
            "id": ["type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$", "description": "Unique step id, used as steps.<id>.output."],
            "skill": ["type": "string", "description": "The skill to call.", "enum": .array(skillIDs.map(Value.string))],
            "playbook": ["type": "string", "description": "A sub-playbook to run instead of a skill: a name or a path."],
            "with": ["type": "object", "description": "Parameters; values may use ${{ … }} expressions."],
            "when": ["description": "Run the step only when this expression is true."],
            "retry": [
                "anyOf": [
                    ["type": "integer", "minimum": 1, "maximum": 100],
                    [
                        "type": "object", "additionalProperties": false,
                        "properties": [
                            "attempts": ["type": "integer", "minimum": 1, "maximum": 100],
                            "backoff": ["enum": ["fixed", "exponential"]],
                            "delay": delay,
                        ],
                    ],
                ]
            ],
            "timeout": duration,
            "confirm": ["type": "boolean", "description": "false lets a confirm-skill run without a terminal."],
            "approval": approval,
            "on_failure": onFailure,
            "foreach": ["description": "A list (usually an expression): the step runs once per element, named item."],
            "concurrency": ["type": "integer", "minimum": 1, "maximum": 64, "description": "foreach calls at once."],
            "batch": [
                "type": "object", "additionalProperties": false,
                "description": "How a list longer than the skill's maxItems is split into calls.",
                "properties": [
                    "size": ["type": "integer", "minimum": 1, "maximum": 1_000_000],
                    "concurrency": ["type": "integer", "minimum": 1, "maximum": 64],
                    "pause": delay,
                    "over": ["type": "string", "description": "The list parameter to split."],
                ],
            ],
            "rollback": [
                "type": "array", "minItems": 1, "items": ["$ref": "#/$defs/rollbackStep"],
                "description": "Steps that undo this one; they may use ${{ this.input }} and ${{ this.output }}.",
            ],
        ]
        let step: Value = [
            "type": "object",
            "required": ["id"],
            "oneOf": [["required": ["skill"]], ["required": ["playbook"]]],
            "additionalProperties": false,
            "properties": .object(stepProperties),
        ]
        // A rollback step has fewer keys, and its id is optional.
        let rollbackProperties = stepProperties.filter { PlaybookDecoder.rollbackStepKeys.contains($0.key) }
        let rollbackStep: Value = [
            "type": "object",
            "required": ["skill"],
            "additionalProperties": false,
            "properties": .object(ValueObject(rollbackProperties.map { ($0.key, $0.value) })),
        ]
        // A notification step: a step whose `id` may be left out (`<event>_<n>`).
        let notifyStep: Value = [
            "type": "object",
            "additionalProperties": false,
            "oneOf": [["required": ["skill"]], ["required": ["playbook"]]],
            "properties": .object(stepProperties),
        ]
        let notifyTarget: Value = [
            "description": "A step (a skill call or a playbook) or a list of them; ${{ run.… }} is the run reported.",
            "anyOf": [["$ref": "#/$defs/notifyStep"], ["type": "array", "minItems": 1, "items": ["$ref": "#/$defs/notifyStep"]]],
        ]
        let notify: Value = [
            "type": "object",
            "additionalProperties": false,
            "description": "Events mapped to the steps that run when they happen, as a run of their own (trigger notify).",
            "properties": .object(ValueObject(NotifyEvent.allCases.map { ($0.rawValue, notifyTarget) })),
        ]
        let scheduleEntry: Value = [
            "type": "object",
            "additionalProperties": false,
            "oneOf": [["required": ["cron"]], ["required": ["every"]]],
            "properties": [
                "cron": ["type": "string", "description": "Five cron fields (Debian cron), or @hourly @daily @weekly @monthly @yearly."],
                "every": duration,
                "timezone": ["type": "string", "description": "IANA zone name; default: the machine's zone."],
                "catch_up": ["enum": ["none", "latest", "all"], "description": "Fires missed while nothing ran."],
                "catch_up_window": duration,
                "overlap": ["enum": ["skip", "queue", "allow"], "description": "A fire while the previous run still runs."],
                "inputs": ["type": "object", "description": "Inputs of the scheduled runs (literal values)."],
            ],
        ]
        return [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://skillbook.dev/schema/playbook.json",
            "title": "Skillbook playbook",
            "type": "object",
            "required": ["name", "steps"],
            "additionalProperties": false,
            "properties": [
                "name": ["type": "string", "pattern": "^[a-z][a-z0-9_-]*$", "description": "Unique; the file is Playbooks/<name>.yaml."],
                "description": ["type": "string"],
                "triggers": ["type": "array", "items": ["type": "string"], "description": "Phrases for 'skillbook ask'; {slot} fills an input."],
                "inputs": ["type": "object", "additionalProperties": ["$ref": "#/$defs/parameterSchema"]],
                "env": ["type": "array", "items": ["type": "string"], "description": "Environment variables readable as env.NAME."],
                "secrets": [
                    "type": "array", "items": ["type": "string"], "uniqueItems": true,
                    "description": "Names of the workspace's secrets (secrets: in skillbook.yaml) the playbook reads; from: and secret('NAME') may then use only these.",
                ],
                "schedule": [
                    "description": "When the playbook runs on its own: one entry or a list.",
                    "anyOf": [["$ref": "#/$defs/scheduleEntry"], ["type": "array", "minItems": 1, "items": ["$ref": "#/$defs/scheduleEntry"]]],
                ],
                "on_failure": onFailure,
                "on_worker_loss": [
                    "enum": ["wait", "rollback"],
                    "description": "When a queued run's worker died during a call that may or may not have happened: wait for a person (default) or roll back.",
                ],
                "on_interrupted": [
                    "enum": ["resume", "rollback", "leave"],
                    "description": "A run a previous daemon left interrupted, when a daemon starts: resume it, roll it back, or leave it and notify failure (default).",
                ],
                "notify": notify,
                "timeout": duration,
                "approval": approval,
                "retention": [
                    "type": "object", "additionalProperties": false,
                    "description": "How long this playbook's runs are kept, overriding skillbook.yaml's retention (default 30 days, 100000 runs).",
                    "properties": [
                        "days": ["type": "integer", "minimum": 1, "maximum": 36500, "description": "Keep each run at least this many days after it started."],
                        "max_runs": ["type": "integer", "minimum": 1, "maximum": 1_000_000_000, "description": "Keep at most this many of its runs (newest)."],
                    ],
                ],
                "steps": ["type": "array", "minItems": 1, "items": ["$ref": "#/$defs/step"]],
                "outputs": ["type": "object", "description": "Named results, usually ${{ steps.<id>.output.<field> }}."],
            ],
            "$defs": ["step": step, "rollbackStep": rollbackStep, "parameterSchema": schemaKeyword, "scheduleEntry": scheduleEntry, "notifyStep": notifyStep],
        ]
    }
}
