package dev.lomicontrol.chat;

import java.util.List;
import java.util.Optional;
import org.springframework.data.jdbc.repository.query.Modifying;
import org.springframework.data.jdbc.repository.query.Query;
import org.springframework.data.repository.ListCrudRepository;

/**
 * The stored messages (ADR 0012); writes only inside {@code Ledger.write}. The reads every chat call
 * makes are written out as {@code @Query}: a derived query builds its SQL again on every call, which
 * the benchmark showed as a third of a read's time.
 */
interface MessageRecords extends ListCrudRepository<MessageRecord, String> {

    @Query("SELECT * FROM chat_message WHERE conversation_id = :conversationId ORDER BY seq")
    List<MessageRecord> findByConversationIdOrderBySeq(String conversationId);

    @Query("SELECT * FROM chat_message WHERE conversation_id = :conversationId ORDER BY seq DESC LIMIT 1")
    Optional<MessageRecord> findFirstByConversationIdOrderBySeqDesc(String conversationId);

    @Query(
            "SELECT * FROM chat_message WHERE conversation_id = :conversationId AND status = :status ORDER BY seq LIMIT 1")
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
