package dev.lomicontrol.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.testing.StoreSliceTest;
import dev.lomicontrol.testing.StoreSlices;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link MessageRecords} on a real store: order, the streaming checkpoint's guard, cascade and constraints. */
@StoreSliceTest
class MessageRecordsTests extends ChatStoreSliceTest {

    MessageRecords messages;
    String conversation;

    @BeforeEach
    void repository() {
        messages = StoreSlices.emptied(ledger, MessageRecords.class);
        Conversations conversations = new Conversations(ledger, clock, new java.security.SecureRandom());
        conversation =
                conversations.create(project("messages"), "t", Optional.empty()).id();
    }

    private MessageRecord message(String id, long seq, String role, String status) {
        return new MessageRecord(
                id, conversation, seq, null, role, status, "", null, null, "req-" + id, null, 1_000, 1_000);
    }

    private MessageRecord insert(MessageRecord record) {
        return ledger.write(c -> ledger.jdbc().aggregates().insert(record));
    }

    @Test
    void messagesComeBackInSequenceAndTheLastAndTheStreamingOneAreFound() {
        insert(message("m-2", 2, "assistant", "streaming"));
        insert(message("m-1", 1, "user", "complete"));

        assertThat(messages.findByConversationIdOrderBySeq(conversation))
                .extracting(MessageRecord::id)
                .containsExactly("m-1", "m-2");
        assertThat(messages.findFirstByConversationIdOrderBySeqDesc(conversation))
                .map(MessageRecord::id)
                .contains("m-2");
        assertThat(messages.findFirstByConversationIdAndStatus(conversation, "streaming"))
                .map(MessageRecord::id)
                .contains("m-2");
        assertThat(messages.findByStatus("streaming"))
                .extracting(MessageRecord::id)
                .containsExactly("m-2");
        assertThat(messages.findById("m-1")).contains(message("m-1", 1, "user", "complete"));
    }

    @Test
    void aCheckpointChangesAStreamingReplyOnlyAndASavedEndIsFinal() {
        MessageRecord streaming = insert(message("m-1", 1, "assistant", "streaming"));

        int first = ledger.write(c -> messages.checkpoint("m-1", "partial", 2_000));
        ledger.write(
                c -> messages.save(messages.findById("m-1").orElseThrow().ended("complete", "final", null, 3_000)));
        int late = ledger.write(c -> messages.checkpoint("m-1", "late", 4_000));

        assertThat(first).isEqualTo(1);
        assertThat(late).isZero();
        MessageRecord stored = messages.findById("m-1").orElseThrow();
        assertThat(stored.content()).isEqualTo("final");
        assertThat(stored.status()).isEqualTo("complete");
        assertThat(stored.updatedAt()).isEqualTo(3_000);
        assertThat(stored.createdAt()).isEqualTo(streaming.createdAt());
    }

    @Test
    void aSecondMessageAtTheSameSeqAnUnknownConversationOrAnUnknownStatusIsRefused() {
        insert(message("m-1", 1, "user", "complete"));
        MessageRecord sameSeq = message("m-2", 1, "user", "complete");
        MessageRecord orphan =
                new MessageRecord("m-3", "chat-none", 1, null, "user", "complete", "", null, null, null, null, 1, 1);
        MessageRecord badStatus = message("m-4", 2, "user", "typing");
        MessageRecord badRole = message("m-5", 2, "system", "complete");

        assertThatThrownBy(() -> insert(sameSeq))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE))
                .hasMessageContaining("UNIQUE constraint failed");
        assertThatThrownBy(() -> insert(orphan)).hasMessageContaining("FOREIGN KEY constraint failed");
        assertThatThrownBy(() -> insert(badStatus)).hasMessageContaining("CHECK constraint failed");
        assertThatThrownBy(() -> insert(badRole)).hasMessageContaining("CHECK constraint failed");

        assertThat(messages.findAll()).extracting(MessageRecord::id).containsExactly("m-1");
    }

    @Test
    void deletingTheConversationDeletesItsMessages() {
        insert(message("m-1", 1, "user", "complete"));

        ledger.write(c -> {
            ledger.jdbc().repository(ConversationRecords.class).deleteById(conversation);
            return null;
        });

        assertThat(messages.count()).isZero();
    }
}
