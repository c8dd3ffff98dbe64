//! The lessons' content, as data: what to read, what to do, what to watch, and the
//! question each one ends with. Tool names and arguments are the demo server's real ones.
//! A lesson may name the endpoint of `holdbay serve` it needs (lesson 11: the one behind
//! sign-in; lesson 12: the 2025-11-25 one, then `/mcp`); the others run against whichever
//! demo server the app is connected to.

/// One lesson against the demo server.
#[derive(Debug)]
pub struct Lesson {
    pub number: u8,
    pub title: &'static str,
    /// The endpoint Start connects to: a path on the page's own origin (the `holdbay serve`
    /// that served the app). `None`: the one connected (the demo server's `/mcp`).
    pub endpoint: Option<&'static str>,
    pub intro: &'static str,
    pub steps: &'static [LessonStep],
    /// What to look at in the scene while doing it.
    pub watch: &'static str,
    pub question: Question,
}

/// One numbered step; a step with a preset has a button that sets up (and starts) the call,
/// one with `connect` a button that connects to that endpoint.
#[derive(Debug)]
pub struct LessonStep {
    pub text: &'static str,
    pub preset: Option<Preset>,
    /// A path on the page's own origin to connect to (lesson 12 goes from one era to the
    /// other).
    pub connect: Option<&'static str>,
}

/// The first step of the lessons that pause a booking ("Pause for input", "State is untrusted").
const BOOK_TABLE_START: LessonStep = LessonStep {
    connect: None,
    text: "Start: calls book_table. The server pauses it with a form.",
    preset: Some(Preset {
        tool: "book_table",
        arguments: r#"{"restaurant":"Chez Holdbay"}"#,
        accept_task: false,
    }),
};

/// A call the step starts in the call panel.
#[derive(Debug, Clone, Copy)]
pub struct Preset {
    pub tool: &'static str,
    /// A JSON object.
    pub arguments: &'static str,
    pub accept_task: bool,
}

#[derive(Debug)]
pub struct Question {
    pub prompt: &'static str,
    pub choices: &'static [Choice],
    /// The answer, in full, shown by the reveal.
    pub answer: &'static str,
    /// Which part of the scene shows the answer happening.
    pub reveal: Reveal,
    /// What to do when that part is not in the scene yet.
    pub missing: &'static str,
}

#[derive(Debug)]
pub struct Choice {
    pub text: &'static str,
    pub correct: bool,
    /// Why this choice is right or wrong.
    pub feedback: &'static str,
}

/// The part of the scene that answers a lesson's question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reveal {
    /// The latch a tool's paused call received (and carried back unchanged).
    Latch { tool: &'static str },
    /// A tool's tray that hit the client's round bound.
    BoundReached { tool: &'static str },
    /// A tool's URL-mode input request.
    UrlTag { tool: &'static str },
    /// A tool call that answered directly although the client accepted a task.
    DirectAnswer { tool: &'static str },
    /// The `tasks/update` that answered a tool's task, else its open input tag.
    TaskAnswer { tool: &'static str },
    /// A tool's task that was asked to cancel, and what it became.
    CancelOutcome { tool: &'static str },
    /// A tool's task restored from durable storage after a reload.
    Restored { tool: &'static str },
    /// A latch the client sent back changed.
    ChangedLatch,
    /// A tool's plain request the client stopped (closed its stream) mid-progress.
    Stopped { tool: &'static str },
    /// The retry that carried the client's refusals of input requests it never declared.
    Declined { tool: &'static str },
    /// A tool's call the server refused with this HTTP status (403: a step-up).
    Refused { tool: &'static str, status: u16 },
    /// A request the server sent on the open stream of a tool's call (a legacy session),
    /// with the client's answer.
    ServerAsk { tool: &'static str },
}

impl Reveal {
    /// The part that shows the answer is drawn only for a moment (a tag while its tray is
    /// paused, a request while it is on the conveyor): the reveal scrubs back to it.
    pub fn is_momentary(self) -> bool {
        matches!(
            self,
            Self::UrlTag { .. }
                | Self::TaskAnswer { .. }
                | Self::Declined { .. }
                | Self::Refused { .. }
                | Self::ServerAsk { .. }
        )
    }
}

pub fn lesson(number: u8) -> Option<&'static Lesson> {
    LESSONS.iter().find(|l| l.number == number)
}

/// The endpoint of lesson 11: the demo tools behind the demo authorization server, on every
/// `holdbay serve` (crates/server's `oauth::PROTECTED_PATH`).
pub const PROTECTED_ENDPOINT: &str = "/protected/mcp";

/// The endpoints of lesson 12: the same booking in 2025-11-25 (crates/server's
/// `mcp::legacy::LEGACY_PATH`), then in 2026-07-28.
pub const LEGACY_ENDPOINT: &str = "/legacy/mcp";
pub const MODERN_ENDPOINT: &str = "/mcp";

pub static LESSONS: [Lesson; 12] = [
    Lesson {
        number: 1,
        title: "Pause for input",
        endpoint: None,
        intro: "A server can pause a tool call to ask the user something. It answers \
                input_required with the questions and a sealed requestState, and keeps \
                nothing in memory. The client calls again with the answers: watch what \
                else it sends.",
        steps: &[
            BOOK_TABLE_START,
            LessonStep {
                connect: None,
                text: "In the call panel, pick a party size and a time, and submit.",
                preset: None,
            },
            LessonStep {
                connect: None,
                text: "The retry goes out by itself and the booking is confirmed.",
                preset: None,
            },
        ],
        watch: "A tray fills in the holding bay: the arguments are the workpiece, the form hangs \
                on it as a tag, the latch is closed on it. On the retry the same latch travels \
                back, and the tray is emptied when the result comes (it stays drawn, closed).",
        question: Question {
            prompt: "What does the client send back with the answers?",
            choices: &[
                Choice {
                    text: "The answers and the requestState exactly as received",
                    correct: true,
                    feedback: "Right: the state is the server's memory of the paused call, \
                               so it must come back byte for byte.",
                },
                Choice {
                    text: "Only the answers: the server remembers the paused call",
                    correct: false,
                    feedback: "Not so: the server keeps nothing between rounds; everything it \
                               needs travels in requestState.",
                },
                Choice {
                    text: "The answers and a requestState updated with them",
                    correct: false,
                    feedback: "No: the client must not change it (lesson 8 shows what the \
                               server does if it does). The answers go in inputResponses \
                               beside it.",
                },
            ],
            answer: "The retry is the same tools/call with a new id, the answers in \
                     inputResponses keyed as the server asked, and requestState exactly as \
                     received. The latch's inspector shows what came and what went back: equal.",
            reveal: Reveal::Latch { tool: "book_table" },
            missing: "Start the lesson and wait for the form: the latch arrives with it.",
        },
    },
    Lesson {
        number: 2,
        title: "Several rounds, and why rounds are bounded",
        endpoint: None,
        intro: "One logical request can pause more than once: each answer may lead to another \
                question. This server never stops asking: watch what the client does.",
        steps: &[
            LessonStep {
                connect: None,
                text: "Start: calls deploy. Choose eu-production as the region, then approve.",
                preset: Some(Preset {
                    tool: "deploy",
                    arguments: r#"{"service":"web"}"#,
                    accept_task: false,
                }),
            },
            LessonStep {
                connect: None,
                text: "Now call endless_questions, and keep answering its questions.",
                preset: Some(Preset {
                    tool: "endless_questions",
                    arguments: "{}",
                    accept_task: false,
                }),
            },
            LessonStep {
                connect: None,
                text: "After the last round this client allows, it stops by itself.",
                preset: None,
            },
        ],
        watch: "Rounds stack up on the tray; the dashed line is the client's round bound. \
                deploy finishes under it; endless_questions reaches it, and the tray shows the \
                bound hit.",
        question: Question {
            prompt: "Why does the client stop answering endless_questions?",
            choices: &[
                Choice {
                    text: "The server says it is done",
                    correct: false,
                    feedback: "It never does: every round it asks a new question.",
                },
                Choice {
                    text: "The client bounds the rounds of one logical request",
                    correct: true,
                    feedback: "Right: a correct client stops at its bound, so a server cannot \
                               keep it looping.",
                },
                Choice {
                    text: "The requestState expired",
                    correct: false,
                    feedback: "No: each round brings a fresh state; expiry is not what stops it.",
                },
            ],
            answer: "The client allows a fixed number of rounds per logical request (10 here). \
                     When the server asks again after the last one, the client ends the call \
                     instead of looping. The tray shows its bound reached.",
            reveal: Reveal::BoundReached {
                tool: "endless_questions",
            },
            missing: "Do step 2 and keep answering endless_questions until the client stops.",
        },
    },
    Lesson {
        number: 3,
        title: "Secrets go through URL mode, never a form",
        endpoint: None,
        intro: "Some input must never pass through the client: a password, an access grant. \
                The server then asks in URL mode rather than with a form. Watch what the \
                client learns, and what it never sees.",
        steps: &[
            LessonStep {
                connect: None,
                text: "Start: calls connect_account. The server asks you to open a page.",
                preset: Some(Preset {
                    tool: "connect_account",
                    arguments: r#"{"provider":"Example Cloud"}"#,
                    accept_task: false,
                }),
            },
            LessonStep {
                connect: None,
                text: "Open the consent page, choose Allow, then come back and say you are done.",
                preset: None,
            },
            LessonStep {
                connect: None,
                text: "The retry tells the server to look; the account is connected.",
                preset: None,
            },
        ],
        watch: "The tag on the tray is a URL-mode tag: it carries a link and no fields. The \
                answer that travels back holds no secret, only the action.",
        question: Question {
            prompt: "Where does the secret (the grant, a password) go?",
            choices: &[
                Choice {
                    text: "Into a form in the client, which forwards it",
                    correct: false,
                    feedback: "No: a form would put the secret through the client and its logs.",
                },
                Choice {
                    text: "Straight to the server, on its own page opened by URL",
                    correct: true,
                    feedback: "Right: the client opens the page and never sees what is typed \
                               there.",
                },
                Choice {
                    text: "Into requestState, sealed",
                    correct: false,
                    feedback: "No: the latch is the server's state, not a place for the user's \
                               secrets.",
                },
            ],
            answer: "In URL mode the input request holds a link to the server's page, no form \
                     fields. The user answers there; the client's answer only says accept, \
                     decline or cancel. The tag's inspector shows the mode and the URL.",
            reveal: Reveal::UrlTag {
                tool: "connect_account",
            },
            missing: "Start the lesson: the URL-mode tag arrives with the first answer.",
        },
    },
    Lesson {
        number: 4,
        title: "Detach a task, and when not to use one",
        endpoint: None,
        intro: "Long work can leave the request: the server answers at once with a task handle \
                and the client follows it (a listen stream pushes its snapshots when the \
                server offers one; otherwise the client polls tasks/get at the server's \
                pollIntervalMs). A client offers that by declaring the tasks extension. \
                Quick work is better answered directly.",
        steps: &[
            LessonStep {
                connect: None,
                text: "Start: calls run_pipeline with \"Accept a task\" on. A task comes back.",
                preset: Some(Preset {
                    tool: "run_pipeline",
                    arguments: r#"{"duration_seconds":10,"target":"staging"}"#,
                    accept_task: true,
                }),
            },
            LessonStep {
                connect: None,
                text: "Now call quick_sum, also accepting a task.",
                preset: Some(Preset {
                    tool: "quick_sum",
                    arguments: r#"{"numbers":[1,2,3]}"#,
                    accept_task: true,
                }),
            },
        ],
        watch: "Both trays say \"task offered\": each request declared the tasks extension. \
                run_pipeline's tray hands its work to the job magazine: a cartridge with a working \
                lamp. The demo server pushes its snapshots on the listen stream, so the client \
                only polls as a safety net: the narration and the inspector say which way each \
                snapshot came. quick_sum's tray completes in place: no cartridge.",
        question: Question {
            prompt: "Who decides whether a tools/call returns a task?",
            choices: &[
                Choice {
                    text: "The client, by declaring the tasks extension",
                    correct: false,
                    feedback: "Declaring it only allows a task; quick_sum still answered directly.",
                },
                Choice {
                    text: "The server, and only if the request declared the tasks extension",
                    correct: true,
                    feedback: "Right: the declaration is an offer; the server decides per call.",
                },
                Choice {
                    text: "The tool's input schema",
                    correct: false,
                    feedback: "No: the arguments say nothing about how the server answers.",
                },
            ],
            answer: "The server decides, call by call, and may return a task only when the \
                     request declared the tasks extension. quick_sum's tray says \"task \
                     offered\": its request declared the extension (the inspector shows it in \
                     _meta, under clientCapabilities.extensions), yet the server answered \
                     directly: the tray completed with no cartridge.",
            reveal: Reveal::DirectAnswer { tool: "quick_sum" },
            missing: "Do step 2: call quick_sum with \"Accept a task\" on.",
        },
    },
    Lesson {
        number: 5,
        title: "Input inside a task",
        endpoint: None,
        intro: "A task can need input too. Its status turns input_required and it lists \
                inputRequests. Here a task and a paused request wait for you at the same \
                time: compare how each one is answered.",
        steps: &[
            LessonStep {
                connect: None,
                text: "Start: calls run_pipeline to production, accepting a task.",
                preset: Some(Preset {
                    tool: "run_pipeline",
                    arguments: r#"{"duration_seconds":12,"target":"production"}"#,
                    accept_task: true,
                }),
            },
            LessonStep {
                connect: None,
                text: "While it runs, call book_table and leave its form open: a paused \
                       request beside the task.",
                preset: Some(Preset {
                    tool: "book_table",
                    arguments: r#"{"restaurant":"Chez Holdbay"}"#,
                    accept_task: false,
                }),
            },
            LessonStep {
                connect: None,
                text: "When the task stops at the approve_prod gate, approve it: its form \
                       opens above the call (\"A task asks for input\"). Then answer \
                       book_table's form.",
                preset: None,
            },
        ],
        watch: "book_table's tray waits in the holding bay with its latch: the server kept \
                nothing. run_pipeline's cartridge turns input_required and a tag hangs on it: \
                the task lives on the server. The approval goes out as tasks/update and the \
                lamp goes back to working; the form's answer goes out as a new tools/call \
                carrying the latch.",
        question: Question {
            prompt: "A paused request and a task in input_required both wait for your input. \
                     What is different?",
            choices: &[
                Choice {
                    text: "Nothing: both are answered by calling the tool again",
                    correct: false,
                    feedback: "No: calling the tool again would start new work; the task is \
                               answered with tasks/update.",
                },
                Choice {
                    text: "The request is answered by retrying tools/call with requestState; \
                           the task, by tasks/update to its taskId",
                    correct: true,
                    feedback: "Right: the paused request lives in its latch, which the client \
                               carries; the task is work the server keeps running.",
                },
                Choice {
                    text: "The task carries a requestState; the paused request does not",
                    correct: false,
                    feedback: "No: the other way round. requestState belongs to the paused \
                               request; a task is named by its taskId.",
                },
            ],
            answer: "The paused request exists only between rounds: the server kept nothing, \
                     so the answer is a new tools/call with the same arguments, inputResponses \
                     and the requestState unchanged. The task lives on the server: the answer \
                     is tasks/update with its taskId and inputResponses keyed as its \
                     inputRequests (here approve_prod), and it goes on where it was. The \
                     inspector shows the real tasks/update.",
            reveal: Reveal::TaskAnswer {
                tool: "run_pipeline",
            },
            missing: "Start the lesson and wait for the approve_prod gate, then answer it \
                      above the call.",
        },
    },
    Lesson {
        number: 6,
        title: "Cancel is a polite ask",
        endpoint: None,
        intro: "tasks/cancel asks the server to stop a task. bulk_import checks between \
                batches: watch a cancel sent early, and one sent during the last batch.",
        steps: &[
            LessonStep {
                connect: None,
                text: "Start: calls bulk_import (10 batches over 30 s), accepting a task. \
                       Cancel it early in the Tasks panel: it ends cancelled.",
                preset: Some(Preset {
                    tool: "bulk_import",
                    arguments: r#"{"records":500,"duration_seconds":30}"#,
                    accept_task: true,
                }),
            },
            LessonStep {
                connect: None,
                text: "Start another and cancel when it says batch 9 of 10: the last batch is \
                       running. The ask is acknowledged, yet the task ends completed.",
                preset: Some(Preset {
                    tool: "bulk_import",
                    arguments: r#"{"records":500,"duration_seconds":30}"#,
                    accept_task: true,
                }),
            },
        ],
        watch: "The cancel travels as a request; its acknowledgement comes back at once. The \
                cartridge's lamp shows the outcome later: cancelled, or completed when the ask \
                came too late.",
        question: Question {
            prompt: "What does a successful tasks/cancel acknowledgement guarantee?",
            choices: &[
                Choice {
                    text: "That the task is cancelled",
                    correct: false,
                    feedback: "No: the second import was acknowledged and still completed.",
                },
                Choice {
                    text: "Only that the server received the request",
                    correct: true,
                    feedback: "Right: the outcome is whatever the task's status becomes.",
                },
                Choice {
                    text: "That the task will end failed",
                    correct: false,
                    feedback: "No: a cancel never turns into a failure by itself.",
                },
            ],
            answer: "Only that the server received the ask. Nothing about the outcome: the task \
                     may still complete (or fail). Follow the status to learn it. The cartridge \
                     shows the cancel ask and the status it actually reached.",
            reveal: Reveal::CancelOutcome {
                tool: "bulk_import",
            },
            missing: "Start the lesson and press Cancel on the import in the Tasks panel, then \
                      wait for its final status.",
        },
    },
    Lesson {
        number: 7,
        title: "The handle is durable",
        endpoint: None,
        intro: "A task outlives the page that started it. The client keeps the task handle in \
                storage; after a reload it comes back and, while it still runs, the client follows it \
                again. The server keeps the \
                task itself, so the work never noticed.",
        steps: &[
            LessonStep {
                connect: None,
                text: "Start: calls run_pipeline (30 s, staging), accepting a task.",
                preset: Some(Preset {
                    tool: "run_pipeline",
                    arguments: r#"{"duration_seconds":30,"target":"staging"}"#,
                    accept_task: true,
                }),
            },
            LessonStep {
                connect: None,
                text: "While it is working, reload this page.",
                preset: None,
            },
            LessonStep {
                connect: None,
                text: "The task re-enters its slot from storage; the client follows it again until it \
                       completes and is sealed.",
                preset: None,
            },
            LessonStep {
                connect: None,
                text: "Then call flaky_job, accepting a task: it ends failed, with the error.",
                preset: Some(Preset {
                    tool: "flaky_job",
                    arguments: r#"{"seconds":3}"#,
                    accept_task: true,
                }),
            },
        ],
        watch: "After the reload the cartridge re-enters marked restored, with the status it \
                had; the next snapshot (pushed or polled) brings the server's current one. Once completed, it is \
                sealed and never changes. flaky_job's cartridge ends failed: sealed just the same.",
        question: Question {
            prompt: "Which statuses are terminal (never change again)?",
            choices: &[
                Choice {
                    text: "working and input_required",
                    correct: false,
                    feedback: "No: those are the statuses of a task still running.",
                },
                Choice {
                    text: "completed, failed and cancelled",
                    correct: true,
                    feedback: "Right: once there, the task is sealed and the client stops following it.",
                },
                Choice {
                    text: "completed only",
                    correct: false,
                    feedback: "No: failed and cancelled are just as final.",
                },
            ],
            answer: "completed, failed and cancelled. A task in one of them never changes; the \
                     client stops following it. The restored cartridge shows its seal once it \
                     completes; flaky_job's is sealed failed, its error in the snapshot.",
            reveal: Reveal::Restored {
                tool: "run_pipeline",
            },
            missing: "Start the lesson and reload the page while the task is working.",
        },
    },
    Lesson {
        number: 8,
        title: "State is untrusted",
        endpoint: None,
        intro: "requestState travels through the client, so the server cannot trust it: it \
                seals it. Here you break the seal on purpose and watch what the server does.",
        steps: &[
            BOOK_TABLE_START,
            LessonStep {
                connect: None,
                text: "In the call panel, press \"Tamper with the latch\": one character of \
                       requestState changes.",
                preset: None,
            },
            LessonStep {
                connect: None,
                text: "Answer the form. The retry carries the changed latch; the server \
                       refuses it (-32602).",
                preset: None,
            },
        ],
        watch: "The latch on the retry differs from the one received and is drawn changed. The \
                round ends in an error instead of a result.",
        question: Question {
            prompt: "What does the server do with a changed latch?",
            choices: &[
                Choice {
                    text: "Refuses it: the seal no longer verifies (-32602)",
                    correct: true,
                    feedback: "Right: the state is sealed (an HMAC bound to the user, the tool \
                               and its arguments), so any change is caught.",
                },
                Choice {
                    text: "Accepts it: the client owns the state",
                    correct: false,
                    feedback: "No: the client only carries it.",
                },
                Choice {
                    text: "Starts the call over from round 1",
                    correct: false,
                    feedback: "No: it refuses the request and says why.",
                },
            ],
            answer: "It refuses the retry with -32602, naming the problem: the state was \
                     tampered with. A server must treat requestState as untrusted input. The \
                     latch's inspector shows what was received and the different value sent back.",
            reveal: Reveal::ChangedLatch,
            missing: "Start the lesson, press \"Tamper with the latch\" in the call panel, then \
                      answer the form.",
        },
    },
    Lesson {
        number: 9,
        title: "Progress, and stopping a plain request",
        endpoint: None,
        intro: "Not every long request needs a task. A plain tools/call may take its time: \
                when it carries a progressToken in _meta, the server streams \
                notifications/progress on the request's own SSE response, before the \
                result. There is no tasks/cancel for it: watch how the client stops it.",
        steps: &[
            LessonStep {
                connect: None,
                text: "Start: calls slow_report (20 s) with \"Report progress\" on and no task.",
                preset: Some(Preset {
                    tool: "slow_report",
                    arguments: r#"{"seconds":20}"#,
                    accept_task: false,
                }),
            },
            LessonStep {
                connect: None,
                text: "Watch the bar on the tray fill, one progress notification at a time.",
                preset: None,
            },
            LessonStep {
                connect: None,
                text: "Press Stop in the call panel before the report is ready.",
                preset: None,
            },
        ],
        watch: "The tray stays in flight and its bar moves with each notifications/progress \
                (\"2 of 6 · Computing totals\"), all on the one exchange on the conveyor. After \
                Stop that exchange ends without a result and the tray is emptied, stopped by the \
                client, at the last progress it heard.",
        question: Question {
            prompt: "How does a client cancel a plain request over HTTP?",
            choices: &[
                Choice {
                    text: "It sends tasks/cancel",
                    correct: false,
                    feedback: "No: tasks/cancel is for tasks, and this request never became one.",
                },
                Choice {
                    text: "It closes the request's response stream",
                    correct: true,
                    feedback: "Right: on Streamable HTTP the disconnect is the cancellation.",
                },
                Choice {
                    text: "It stops reading progress until the server gives up",
                    correct: false,
                    feedback: "No: progress only reports; the client has to end the request.",
                },
            ],
            answer: "It closes the response stream. Over Streamable HTTP a disconnect is the \
                     cancellation (notifications/cancelled is for stdio only), so the server \
                     should stop the work and send nothing more for that request. The tray \
                     keeps the last progress it heard and says the client stopped it.",
            reveal: Reveal::Stopped {
                tool: "slow_report",
            },
            missing: "Start the lesson and press Stop in the call panel while the report runs.",
        },
    },
    Lesson {
        number: 10,
        title: "Deprecated client features",
        endpoint: None,
        intro: "Three client features of earlier revisions are deprecated in 2026-07-28 \
                (SEP-2577) but still work: roots (the server asks which folders it may see), \
                sampling (it borrows the client's model) and logging (it sends log lines). \
                Holdbay declares none of them: watch what it answers a server that asks \
                anyway.",
        steps: &[
            LessonStep {
                connect: None,
                text: "Start: calls summarize_folder. The server asks for roots and sampling, \
                       which this client never declared.",
                preset: Some(Preset {
                    tool: "summarize_folder",
                    arguments: r#"{"folder":"file:///home/learner/notes"}"#,
                    accept_task: false,
                }),
            },
            LessonStep {
                connect: None,
                text: "In the call panel both requests are marked Deprecated. Press each one's \
                       refusal (Share no roots, Decline): the retry goes out by itself.",
                preset: None,
            },
            LessonStep {
                connect: None,
                text: "Read the result: what the server got back, and what replaces each \
                       feature.",
                preset: None,
            },
        ],
        watch: "Two tags hang on the tray: roots/list and sampling/createMessage. The retry \
                carries an answer under each key. No notifications/message arrives: the \
                request set no logLevel, so the server stays quiet.",
        question: Question {
            prompt: "What does Holdbay send back for a roots/list and a sampling/createMessage \
                     it never declared?",
            choices: &[
                Choice {
                    text: "Nothing: it skips them, and the server waits",
                    correct: false,
                    feedback: "No: the retry answers every key, so the server is never left \
                               guessing.",
                },
                Choice {
                    text: "An empty roots list, and error -32601 for sampling",
                    correct: true,
                    feedback: "Right: each is a refusal the server can read, and neither \
                               shares anything.",
                },
                Choice {
                    text: "Its real folders, and a reply from its own model",
                    correct: false,
                    feedback: "No: it declared neither feature, and shares neither.",
                },
            ],
            answer: "roots/list gets {\"roots\": []}: a well-formed result that shares no \
                     folder. sampling/createMessage gets the JSON-RPC error -32601: a result \
                     needs a model and content, and inventing one would be a lie. Instead of \
                     roots, pass folders as tool arguments; instead of sampling, a server calls \
                     an LLM provider itself; instead of logging, stderr or OpenTelemetry. \
                     Removal comes no earlier than the first revision on or after 2027-07-28. \
                     The retry's inspector shows both answers.",
            reveal: Reveal::Declined {
                tool: "summarize_folder",
            },
            missing: "Start the lesson and decline both requests in the call panel.",
        },
    },
    Lesson {
        number: 11,
        title: "Who may ask: authorization",
        endpoint: Some(PROTECTED_ENDPOINT),
        intro: "An MCP server can ask who is calling. Without an access token it answers 401 \
                and names, in WWW-Authenticate, its resource metadata: which authorization \
                server issues its tokens. The client finds the rest itself, asks the user in \
                the browser, and sends the same request again with the token.",
        steps: &[
            LessonStep {
                connect: None,
                text: "Start: connects to /protected/mcp. server/discover gets 401 with \
                       WWW-Authenticate: Bearer resource_metadata=…, and the sign-in card \
                       appears. (Signed in already? Sign out first.)",
                preset: None,
            },
            LessonStep {
                connect: None,
                text: "Press Sign in. The client reads the resource metadata the challenge \
                       names (oauth: resource metadata), then its authorization server's \
                       (oauth: server metadata), and registers if it must (oauth: register).",
                preset: None,
            },
            LessonStep {
                connect: None,
                text: "A window opens on the demo authorization server's consent page \
                       (oauth: authorize): press Allow. It returns to the app with a code \
                       (oauth: callback), which the client trades for a token (oauth: token).",
                preset: None,
            },
            LessonStep {
                connect: None,
                text: "The waiting server/discover goes again with Authorization: Bearer …, \
                       and the tools load.",
                preset: None,
            },
            LessonStep {
                connect: None,
                text: "Now call deploy: 403 insufficient_scope, it needs mcp:admin. Press Sign \
                       in again, Allow, and the same call goes again with the new token.",
                preset: Some(Preset {
                    tool: "deploy",
                    arguments: r#"{"service":"web"}"#,
                    accept_task: false,
                }),
            },
        ],
        watch: "The authorization lane draws each oauth: exchange at the station that answers \
                it: the resource server, the authorization server, the browser. The wire log \
                has them as rows labelled oauth: …, between the refused request and its retry; \
                codes and tokens are redacted there.",
        question: Question {
            prompt: "deploy was refused although the client had a token. Why, and what fixed it?",
            choices: &[
                Choice {
                    text: "The token had expired, so the client refreshed it",
                    correct: false,
                    feedback: "No: an expired token gets 401 invalid_token. This was 403 \
                               insufficient_scope, and a refresh cannot widen a grant.",
                },
                Choice {
                    text: "It lacked the scope mcp:admin: the client signed in again asking \
                           for it, then sent the same call",
                    correct: true,
                    feedback: "Right: the token was valid but not enough. The challenge named \
                               the scope to ask for; a second consent granted it.",
                },
                Choice {
                    text: "A browser may not deploy: the call must go through the relay",
                    correct: false,
                    feedback: "No: the server decides by the token's scopes, not by who \
                               carries the request.",
                },
            ],
            answer: "The server answered 403 with WWW-Authenticate: Bearer \
                     error=\"insufficient_scope\", scope=\"mcp:tools mcp:admin\": the token \
                     is valid but grants too little. The client goes back to the authorization \
                     server asking for the bigger scope (a second consent, a new oauth: token \
                     row) and sends the same tools/call again, now with the new token. The wire \
                     log shows the 403, the step-up's oauth: rows and the retry, in that order.",
            reveal: Reveal::Refused {
                tool: "deploy",
                status: 403,
            },
            missing: "Do step 5: call deploy after signing in, and wait for its 403.",
        },
    },
    Lesson {
        number: 12,
        title: "The old way: the server asks on an open stream",
        endpoint: Some(LEGACY_ENDPOINT),
        intro: "Before 2026-07-28 a server could send the client requests of its own. In \
                2025-11-25 the client opens a session with initialize; when a call needs \
                input, the server keeps the call open and asks on its stream. Book the same \
                table both ways and compare what the server keeps while it waits for you.",
        steps: &[
            LessonStep {
                connect: None,
                text: "Start: connects to /legacy/mcp. It speaks 2025-11-25, so the client \
                       sends initialize and the server opens a session, drawn as a line held \
                       between client and server.",
                preset: None,
            },
            LessonStep {
                connect: None,
                text: "Call book_table. The call goes out once; the server keeps it open and \
                       sends elicitation/create on its stream, a piece travelling from the \
                       server. Answer the card: your answer is a POST of its own, and the \
                       same call then ends with its result.",
                preset: Some(Preset {
                    tool: "book_table",
                    arguments: r#"{"restaurant":"Chez Holdbay"}"#,
                    accept_task: false,
                }),
            },
            LessonStep {
                connect: Some(MODERN_ENDPOINT),
                text: "Now connect to /mcp, which speaks 2026-07-28: server/discover is \
                       answered at once, and no session opens.",
                preset: None,
            },
            LessonStep {
                connect: None,
                text: "Book again. The server answers input_required with its form and a \
                       latch (requestState), and forgets the call. Answer the form: the \
                       retry carries your answers and the latch back as received.",
                preset: Some(Preset {
                    tool: "book_table",
                    arguments: r#"{"restaurant":"Chez Holdbay"}"#,
                    accept_task: false,
                }),
            },
        ],
        watch: "The first booking's tray says the server keeps it, and its tag hangs while \
                the server's own request waits for you; the session line counts what went \
                through it. The second booking's tray carries a latch instead, round after \
                round, and no line is held.",
        question: Question {
            prompt: "While it waited for your answer, what did the server have to keep, each \
                     way?",
            choices: &[
                Choice {
                    text: "The same both ways: the call's state, in its memory, until the \
                           answer came",
                    correct: false,
                    feedback: "Not with MRTR: the server answered input_required and forgot \
                               the call; its state travelled to the client in requestState \
                               and came back with the retry.",
                },
                Choice {
                    text: "2025-11-25: the session, the call and its open stream; \
                           2026-07-28: nothing, the state went to the client as the latch",
                    correct: true,
                    feedback: "Right: the old server held everything while you typed; the \
                               new one held nothing, and any of its instances can take the \
                               retry.",
                },
                Choice {
                    text: "Nothing in 2025-11-25 either: the Mcp-Session-Id carries the state",
                    correct: false,
                    feedback: "No: the session id only names what the server keeps in its \
                               memory. A server that restarts forgets the session, and the \
                               client must initialize again.",
                },
            ],
            answer: "In 2025-11-25 the server held the session (initialize, Mcp-Session-Id), \
                     the call and its open stream while it waited: its elicitation/create \
                     travelled from the server on that stream, and your answer went back as a \
                     POST of its own, matched by the request's id. In 2026-07-28 it held \
                     nothing: input_required handed the client the question with a sealed \
                     requestState, the call ended, and each retry brought the answer and the \
                     state back. A server restarted in between loses the old-way call; the \
                     new way survives it.",
            reveal: Reveal::ServerAsk { tool: "book_table" },
            missing: "Do step 2: call book_table on /legacy/mcp and answer the server's \
                      question.",
        },
    },
];
