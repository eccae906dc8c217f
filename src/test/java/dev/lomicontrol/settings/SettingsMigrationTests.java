package dev.lomicontrol.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.testing.MigrationFixture;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** V10 rebuilds {@code setting_section} so a revision may be 1 (ADR 0012): sections saved before come through unchanged. */
class SettingsMigrationTests {

    @TempDir
    Path temp;

    @Test
    void sectionsSavedBeforeV10SurviveAndTheRevisionMayNowBeOneButNotZero() throws Exception {
        MigrationFixture store = MigrationFixture.in(temp).migrateTo("9");
        store.run(s -> {
            s.execute(
                    "INSERT INTO setting_section (section, value, revision, updated_at) VALUES ('editor', '{\"tabSize\":2}', 7, 42)");
        });

        store.migrate();

        store.run(s -> {
            try (ResultSet rs = s.executeQuery("SELECT section, value, revision, updated_at FROM setting_section")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("editor");
                assertThat(rs.getString(2)).isEqualTo("{\"tabSize\":2}");
                assertThat(rs.getLong(3)).isEqualTo(7);
                assertThat(rs.getLong(4)).isEqualTo(42);
                assertThat(rs.next()).isFalse();
            }
            s.execute(
                    "INSERT INTO setting_section (section, value, revision, updated_at) VALUES ('terminal', '{}', 1, 1)");
            assertThatThrownBy(
                            () -> s.execute(
                                    "INSERT INTO setting_section (section, value, revision, updated_at) VALUES ('x', '{}', 0, 1)"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("CHECK");
        });
    }
}
