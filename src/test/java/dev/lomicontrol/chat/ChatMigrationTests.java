package dev.lomicontrol.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.testing.MigrationFixture;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * V9 adds the chat tables and rebuilds the panel table once more for the kind 'chat': panels stored
 * before come through unchanged, a chat panel must carry its view, conversations go with their project.
 */
class ChatMigrationTests {

    @TempDir
    Path temp;

    @Test
    void panelsWrittenBeforeV9SurviveAndChatRowsFollowTheirProject() throws Exception {
        MigrationFixture store = MigrationFixture.in(temp).migrateTo("7");
        store.runWithForeignKeys(s -> {
            s.execute("INSERT INTO project (id, name, root, added_at) VALUES ('p1', 'demo', '/tmp/demo', 1)");
            s.execute("INSERT INTO workspace (id, project_id, name, created_at) VALUES ('w1', 'p1', 'main', 1)");
            s.execute(
                    "INSERT INTO panel (id, workspace_id, kind, title, cwd, created_at, view) VALUES ('g1', 'w1', 'git', 'Commit', '.', 8,"
                            + " '{\"type\":\"commit\"}')");
        });

        store.migrate();

        store.runWithForeignKeys(s -> {
            try (ResultSet rs = s.executeQuery("SELECT kind, view FROM panel WHERE id = 'g1'")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("git");
                assertThat(rs.getString(2)).isEqualTo("{\"type\":\"commit\"}");
            }
            s.execute(
                    "INSERT INTO panel (id, workspace_id, kind, title, cwd, created_at, view) VALUES ('c1', 'w1', 'chat', 'Chat', '.', 9,"
                            + " '{\"conversationId\":\"chat-1\",\"type\":\"chat\"}')");
            assertThatThrownBy(() -> s.execute(
                            "INSERT INTO panel (id, workspace_id, kind, title, cwd, created_at) VALUES ('c2', 'w1', 'chat', 'x',"
                                    + " '.', 9)"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("CHECK");
            s.execute(
                    "INSERT INTO chat_conversation (id, project_id, title, revision, draft_revision, created_at, updated_at)"
                            + " VALUES ('chat-1', 'p1', 'Chat', 1, 1, 1, 1)");
            s.execute(
                    "INSERT INTO chat_message (id, conversation_id, seq, role, status, content, created_at, updated_at)"
                            + " VALUES ('m1', 'chat-1', 1, 'user', 'complete', 'hi', 1, 1)");
            assertThatThrownBy(() -> s.execute(
                            "INSERT INTO chat_connection (id, kind, base_url, model, api_key_env, api_key_file, max_output_tokens,"
                                    + " created_at) VALUES ('x', 'openai', 'http://h/v1', 'm', 'A', '/k', 1, 1)"))
                    .as("one key source at most")
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("CHECK");
            s.execute("DELETE FROM project WHERE id = 'p1'");
            try (ResultSet rs = s.executeQuery(
                    "SELECT (SELECT count(*) FROM chat_conversation) + (SELECT count(*) FROM chat_message)"
                            + " + (SELECT count(*) FROM panel)")) {
                rs.next();
                assertThat(rs.getInt(1))
                        .as("conversations, messages and panels go with their project")
                        .isZero();
            }
        });
    }
}
