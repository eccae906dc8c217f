package dev.lomicontrol.chat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.LedgerProperties;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A reply that was streaming when the broker stopped is never resumed or re-sent: the next start ends it {@code interrupted}, its text kept. */
class ChatRecoveryTests {

    @TempDir
    Path temp;

    @Test
    void aReplyStreamingAtShutdownEndsInterruptedWithItsCheckpointKept() throws Exception {
        MutableClock clock = MutableClock.startingAt("2026-12-01T09:00:00Z");
        Path store = temp.resolve("agent-control");
        String conversation;
        String reply;
        try (Ledger ledger = Ledger.open(store, LedgerProperties.defaults(), clock, new SecureRandom())) {
            Project project = new Projects(ledger, clock)
                    .add(Files.createDirectories(temp.resolve("p")).toRealPath(), Optional.of("p"));
            Conversations conversations = new Conversations(ledger, clock, new SecureRandom());
            conversation =
                    conversations.create(project.id(), "Chat", Optional.empty()).id();
            reply = conversations
                    .say(conversation, "hello", Optional.of("local"), Optional.of("m"), Optional.of("req-1"))
                    .assistant()
                    .id();
            conversations.checkpoint(reply, "half of the ans");
        }
        clock.advance(java.time.Duration.ofMinutes(1));
        try (Ledger ledger = Ledger.open(store, LedgerProperties.defaults(), clock, new SecureRandom());
                Chat chat = Chat.open(ledger, clock, ChatProperties.defaults(), new SpringAiModels(), name -> null)) {
            ChatMessage message = chat.conversations().message(reply).orElseThrow();
            assertThat(message.status()).isEqualTo("interrupted");
            assertThat(message.content()).isEqualTo("half of the ans");
            assertThat(chat.conversations().find(conversation).orElseThrow().conversationRevision())
                    .as("the end moved the revision")
                    .isEqualTo("r3");
            assertThat(chat.replies().running("req-1")).isFalse();
        }
    }
}
