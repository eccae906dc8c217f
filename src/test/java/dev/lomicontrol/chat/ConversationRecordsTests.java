package dev.lomicontrol.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.testing.StoreSliceTest;
import dev.lomicontrol.testing.StoreSlices;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

/** {@link ConversationRecords} on a real store: the aggregate with its shares, the shared-with query, the foreign keys and checks. */
@StoreSliceTest
class ConversationRecordsTests extends ChatStoreSliceTest {

    ConversationRecords conversations;
    ProjectId project;

    @BeforeEach
    void repository() {
        conversations = StoreSlices.emptied(ledger, ConversationRecords.class);
        project = project("chat-slice");
    }

    private ConversationRecord insert(ConversationRecord record) {
        return ledger.write(c -> ledger.jdbc().aggregates().insert(record));
    }

    @Test
    void aConversationComesBackWithItsSharesAndASaveReplacesThem() {
        ConversationRecord created = insert(ConversationRecord.created("chat-1", project, "first", 1_000)
                .sharing(Conversations.Share.client("cli"), 1_000)
                .sharing(Conversations.Share.session("s-1"), 1_000));
        ConversationRecord fewer = ledger.write(c -> conversations.save(
                created.unsharing(Conversations.Share.session("s-1")).withDraft("hi", 2_000)));

        ConversationRecord stored = conversations.findById("chat-1").orElseThrow();
        assertThat(stored).isEqualTo(fewer);
        assertThat(stored.shares()).containsExactly(new ConversationRecord.ShareRecord("client", "cli", 1_000));
        assertThat(stored.conversation().draftRevisionToken()).isEqualTo("d2");
        assertThat(stored.conversation().conversationRevision()).isEqualTo("r1");
        assertThat(JdbcClient.create(ledger.readerDataSource())
                        .sql("SELECT count(*) FROM chat_share")
                        .query(Integer.class)
                        .single())
                .isEqualTo(1);
    }

    @Test
    void sharedWithFindsAClientsOrASessionsConversationsOfOneProjectOldestFirstUpToTheLimit() {
        insert(ConversationRecord.created("chat-b", project, "b", 2_000)
                .sharing(Conversations.Share.client("cli"), 2_000));
        insert(ConversationRecord.created("chat-a", project, "a", 1_000)
                .sharing(Conversations.Share.session("s-9"), 1_000));
        insert(ConversationRecord.created("chat-c", project, "c", 3_000)
                .sharing(Conversations.Share.client("other"), 3_000));

        assertThat(conversations.sharedWith(project.value(), "cli", "s-9", 64))
                .extracting(ConversationRecord::id)
                .containsExactly("chat-a", "chat-b");
        assertThat(conversations.sharedWith(project.value(), "cli", "s-9", 1))
                .extracting(ConversationRecord::id)
                .containsExactly("chat-a");
        assertThat(conversations.sharedWith("prj-none", "cli", "s-9", 64)).isEmpty();
        assertThat(conversations.findByProjectIdOrderByCreatedAtAscIdAsc(project.value()))
                .extracting(ConversationRecord::id)
                .containsExactly("chat-a", "chat-b", "chat-c");
    }

    @Test
    void removingTheProjectRemovesItsConversationsAndTheirShares() {
        insert(ConversationRecord.created("chat-1", project, "t", 1_000)
                .sharing(Conversations.Share.client("cli"), 1_000));

        new Projects(ledger, clock).remove(project);

        assertThat(conversations.count()).isZero();
        assertThat(JdbcClient.create(ledger.readerDataSource())
                        .sql("SELECT count(*) FROM chat_share")
                        .query(Integer.class)
                        .single())
                .isZero();
    }

    @Test
    void aConversationOfAnUnknownProjectOrWithBrokenCountersIsRefused() {
        ConversationRecord fine = ConversationRecord.created("chat-1", project, "t", 1_000);
        ConversationRecord orphan = ConversationRecord.created("chat-2", new ProjectId("prj-none"), "t", 1_000);
        ConversationRecord badTools = fine.withTools(true, 1_000);
        ConversationRecord noRevision =
                new ConversationRecord("chat-3", project.value(), "t", 0, "", 1, null, null, 0, 1_000, 1_000, Set.of());
        ConversationRecord twoTools =
                new ConversationRecord("chat-4", project.value(), "t", 1, "", 1, null, null, 2, 1_000, 1_000, Set.of());

        assertThatThrownBy(() -> insert(orphan))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE))
                .hasMessageContaining("FOREIGN KEY constraint failed");
        assertThatThrownBy(() -> insert(noRevision)).hasMessageContaining("CHECK constraint failed");
        assertThatThrownBy(() -> insert(twoTools)).hasMessageContaining("CHECK constraint failed");
        insert(badTools);

        assertThat(conversations.findAll()).extracting(ConversationRecord::id).containsExactly("chat-1");
        assertThat(conversations.findById("chat-1").orElseThrow().conversation().tools())
                .isTrue();
    }
}
