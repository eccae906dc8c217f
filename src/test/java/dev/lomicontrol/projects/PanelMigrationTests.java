package dev.lomicontrol.projects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.testing.MigrationFixture;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * V6 (and V8, V9, V13 after it) rebuild the panel table (SQLite cannot change a CHECK constraint in
 * place): panels stored before come through unchanged, a git, chat or android panel must carry its
 * view, and other kinds must not.
 */
class PanelMigrationTests {

    @TempDir
    Path temp;

    @Test
    void panelsWrittenBeforeV6SurviveTheRebuildAndGitPanelsNeedAView() throws Exception {
        MigrationFixture store = MigrationFixture.in(temp).migrateTo("5");
        store.runWithForeignKeys(s -> {
            s.execute("INSERT INTO project (id, name, root, added_at) VALUES ('p1', 'demo', '/tmp/demo', 1)");
            s.execute("INSERT INTO workspace (id, project_id, name, created_at) VALUES ('w1', 'p1', 'main', 1)");
            s.execute(
                    "INSERT INTO panel (id, workspace_id, kind, title, terminal_session_id, owner_session, profile, cwd, document_id, created_at)"
                            + " VALUES ('e1', 'w1', 'editor', 'README.md', NULL, 's1', NULL, 'README.md', 'doc-1', 7)");
        });

        store.migrate();

        store.runWithForeignKeys(s -> {
            try (ResultSet rs = s.executeQuery(
                    "SELECT kind, title, owner_session, cwd, document_id, created_at, view FROM panel WHERE id = 'e1'")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("editor");
                assertThat(rs.getString(2)).isEqualTo("README.md");
                assertThat(rs.getString(3)).isEqualTo("s1");
                assertThat(rs.getString(4)).isEqualTo("README.md");
                assertThat(rs.getString(5)).isEqualTo("doc-1");
                assertThat(rs.getLong(6)).isEqualTo(7);
                assertThat(rs.getString(7)).isNull();
            }
            s.execute(
                    "INSERT INTO panel (id, workspace_id, kind, title, cwd, created_at, view) VALUES ('g1', 'w1', 'git', 'Commit', '.', 8,"
                            + " '{\"type\":\"commit\"}')");
            assertThatThrownBy(() -> s.execute(
                            "INSERT INTO panel (id, workspace_id, kind, title, cwd, created_at) VALUES ('g2', 'w1', 'git', 'x',"
                                    + " '.', 9)"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("CHECK");
            assertThatThrownBy(() -> s.execute(
                            "INSERT INTO panel (id, workspace_id, kind, title, cwd, created_at, view) VALUES ('t1', 'w1',"
                                    + " 'terminal', 'x', '.', 9, '{}')"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("CHECK");
            s.execute("DELETE FROM workspace WHERE id = 'w1'");
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM panel")) {
                rs.next();
                assertThat(rs.getInt(1))
                        .as("the rebuilt table still cascades with its workspace")
                        .isZero();
            }
        });
    }

    @Test
    void v13KeepsChatAndBrowserPanelsAndAnAndroidPanelNeedsItsView() throws Exception {
        MigrationFixture store = MigrationFixture.in(temp).migrateTo("12");
        store.runWithForeignKeys(s -> {
            s.execute("INSERT INTO project (id, name, root, added_at) VALUES ('p1', 'demo', '/tmp/demo', 1)");
            s.execute("INSERT INTO workspace (id, project_id, name, created_at) VALUES ('w1', 'p1', 'main', 1)");
            s.execute(
                    "INSERT INTO panel (id, workspace_id, kind, title, cwd, created_at, view) VALUES ('c1', 'w1', 'chat',"
                            + " 'Chat', '.', 5, '{\"conversationId\":\"c\",\"type\":\"chat\"}')");
            s.execute(
                    "INSERT INTO panel (id, workspace_id, kind, title, cwd, created_at) VALUES ('b1', 'w1', 'browser',"
                            + " 'Browser', '.', 6)");
            assertThatThrownBy(
                            () -> s.execute("INSERT INTO panel (id, workspace_id, kind, title, cwd, created_at, view)"
                                    + " VALUES ('a0', 'w1', 'android', 'x', '.', 7, '{}')"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("CHECK");
        });

        store.migrate();

        store.runWithForeignKeys(s -> {
            try (ResultSet rs = s.executeQuery("SELECT id, kind, view FROM panel ORDER BY id")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("b1");
                assertThat(rs.getString(3)).isNull();
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(2)).isEqualTo("chat");
                assertThat(rs.getString(3)).contains("conversationId");
                assertThat(rs.next()).isFalse();
            }
            s.execute(
                    "INSERT INTO panel (id, workspace_id, kind, title, cwd, created_at, view) VALUES ('a1', 'w1', 'android',"
                            + " 'Pixel', '.', 8, '{\"deviceId\":\"d\",\"type\":\"android\"}')");
            assertThatThrownBy(() -> s.execute("INSERT INTO panel (id, workspace_id, kind, title, cwd, created_at)"
                            + " VALUES ('a2', 'w1', 'android', 'x', '.', 9)"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("CHECK");
            s.execute("DELETE FROM workspace WHERE id = 'w1'");
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM panel")) {
                rs.next();
                assertThat(rs.getInt(1))
                        .as("the rebuilt table still cascades with its workspace")
                        .isZero();
            }
        });
    }
}
