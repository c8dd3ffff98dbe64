//! What the user does to a task, handed to the book: answer its input requests (all of a
//! snapshot's together, in one `tasks/update`), ask to cancel it, forget it. The driver
//! loop sends what the book then asks for.

use holdbay_engine::InputAnswer;

use super::TaskBoard;
use crate::split::{ChunkMissing, chunk, engine_work};

impl TaskBoard {
    /// Choose the answer to the task's request `key` (not sent yet: see `send_answers`).
    pub fn choose(&self, task_id: &str, key: &str, answer: InputAnswer) {
        self.with_book(|book| book.choose(task_id, key, answer));
    }

    /// Send the chosen answers in one `tasks/update`, once every outstanding request of
    /// the task's snapshot has one (the engine decides); returns whether it goes out.
    pub fn send_answers(&self, task_id: &str) -> bool {
        self.with_book(|book| book.send_answers(task_id))
            .unwrap_or(false)
    }

    /// Take back the answer chosen for `key` before it was sent.
    pub fn unanswer(&self, task_id: &str, key: &str) {
        self.with_book(|book| book.unchoose(task_id, key));
    }

    /// Ask the server to cancel the task. Only a request: the task may still complete or
    /// fail. (From the engine-work chunk, like the rest of following: see
    /// [`TaskBoard::start`].)
    pub fn cancel(&self, task_id: &str) {
        let (board, task_id) = (*self, task_id.to_owned());
        leptos::task::spawn_local(async move {
            if let Err(missing) = chunk!(cancel_task(board, task_id.clone())) {
                let why = format!("tasks/cancel was not sent: {missing}");
                board.with_book(|book| book.note_unsent(&task_id, why));
            }
        });
    }

    /// Drop an ended task from the board and from storage.
    pub fn forget(&self, task_id: &str) {
        let (board, task_id) = (*self, task_id.to_owned());
        leptos::task::spawn_local(async move {
            if let Err(missing) = chunk!(forget_task(board, task_id.clone())) {
                let why = format!("not forgotten: {missing}");
                board.with_book(|book| book.note_unsent(&task_id, why));
            }
        });
    }
}

engine_work! {
    fn cancel_task(board: TaskBoard, task_id: String) -> Result<(), ChunkMissing> {
        board.with_book(|book| book.cancel(&task_id));
        Ok(())
    }
}

engine_work! {
    fn forget_task(board: TaskBoard, task_id: String) -> Result<(), ChunkMissing> {
        board.with_book(|book| book.forget(&task_id));
        Ok(())
    }
}
