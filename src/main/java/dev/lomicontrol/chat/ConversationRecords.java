package dev.lomicontrol.chat;

import java.util.List;
import org.springframework.data.jdbc.repository.query.Query;
import org.springframework.data.repository.ListCrudRepository;

/** The stored conversations with their shares (ADR 0012); writes only inside {@code Ledger.write}. */
interface ConversationRecords extends ListCrudRepository<ConversationRecord, String> {

    List<ConversationRecord> findAllByOrderByCreatedAtAscIdAsc();

    @Query("SELECT * FROM chat_conversation WHERE project_id = :projectId ORDER BY created_at, id")
    List<ConversationRecord> findByProjectIdOrderByCreatedAtAscIdAsc(String projectId);

    /** The conversations of a project shared with this client label or session, oldest first. */
    @Query(
            "SELECT * FROM chat_conversation WHERE project_id = :projectId AND id IN (SELECT conversation_id FROM chat_share"
                    + " WHERE (kind = 'client' AND value = :clientLabel) OR (kind = 'session' AND value = :sessionId)) ORDER BY created_at, id LIMIT :limit")
    List<ConversationRecord> sharedWith(String projectId, String clientLabel, String sessionId, int limit);
}
