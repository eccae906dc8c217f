package dev.lomicontrol.chat;

import java.util.List;
import java.util.Optional;
import org.springframework.data.jdbc.repository.query.Modifying;
import org.springframework.data.jdbc.repository.query.Query;
import org.springframework.data.repository.ListCrudRepository;

/** The stored messages (ADR 0012); writes only inside {@code Ledger.write}. */
interface MessageRecords extends ListCrudRepository<MessageRecord, String> {

    List<MessageRecord> findByConversationIdOrderBySeq(String conversationId);

    Optional<MessageRecord> findFirstByConversationIdOrderBySeqDesc(String conversationId);

    Optional<MessageRecord> findFirstByConversationIdAndStatus(String conversationId, String status);

    List<MessageRecord> findByStatus(String status);

    /**
     * Saves a streaming reply's checkpoint in one statement (it runs for every chunk period of a
     * stream): a reply that already ended is left alone. Returns the rows changed (0 or 1).
     */
    @Modifying
    @Query("UPDATE chat_message SET content = :content, updated_at = :now WHERE id = :id AND status = 'streaming'")
    int checkpoint(String id, String content, long now);
}
