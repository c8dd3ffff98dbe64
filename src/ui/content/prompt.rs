//! A completed `prompts/get`: its description and each message with its role.

use holdbay_engine::model::{GetPromptResult, Role};
use leptos::prelude::*;

use super::ShowResult;
use super::block::ContentBlockView;

#[component]
pub fn PromptResult(result: GetPromptResult) -> impl IntoView {
    let count = result.messages.len();
    let summary = match count {
        1 => "1 message".to_owned(),
        n => format!("{n} messages"),
    };
    view! {
        <section class="prompt-result" aria-label="Prompt messages">
            <p class="result-ok">"Complete " <span class="quiet">{summary}</span></p>
            {result.description.map(|d| view! { <p class="prompt-description">{d}</p> })}
            {(count == 0).then(|| view! { <p class="quiet">"The prompt has no messages."</p> })}
            <ol class="prompt-messages">
                {result
                    .messages
                    .into_iter()
                    .map(|message| {
                        let role = match message.role {
                            Role::User => "user",
                            Role::Assistant => "assistant",
                        };
                        view! {
                            <li class="prompt-message" data-role=role>
                                <span class="message-role">{role}</span>
                                <div class="message-content">
                                    <ContentBlockView block=message.content />
                                </div>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        </section>
    }
}

impl ShowResult for GetPromptResult {
    fn show(self) -> AnyView {
        view! { <PromptResult result=self /> }.into_any()
    }
}
