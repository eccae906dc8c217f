package dev.lomicontrol.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.testing.StoreSliceTest;
import dev.lomicontrol.testing.StoreSlices;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.jdbc.core.simple.JdbcClient;

/** {@link SettingSections} on a real store: round trips, the optimistic revision, the table's constraints, the single writer. */
@StoreSliceTest
class SettingSectionsTests {

    @Autowired
    Ledger ledger;

    SettingSections sections;

    @BeforeEach
    void repository() {
        sections = StoreSlices.emptied(ledger, SettingSections.class);
    }

    @Test
    void aSectionSavedInTheWriterComesBackFromAReaderWithItsRevision() {
        SettingSection inserted = ledger.write(c -> sections.save(SettingSection.defaults("editor", 1_000)));
        SettingSection changed = ledger.write(c -> sections.save(inserted.changed("{\"tabSize\":2}", 2_000)));

        assertThat(inserted.revision()).isEqualTo(1);
        assertThat(changed.revision()).isEqualTo(2);
        assertThat(sections.findById("editor")).contains(new SettingSection("editor", "{\"tabSize\":2}", 2, 2_000));
        assertThat(sections.findAll()).hasSize(1);
    }

    @Test
    void aStaleRevisionIsRefusedAndChangesNothing() {
        SettingSection first = ledger.write(c -> sections.save(SettingSection.defaults("terminal", 1_000)));
        ledger.write(c -> sections.save(first.changed("{\"a\":1}", 2_000)));

        assertThatThrownBy(() -> ledger.write(c -> sections.save(first.changed("{\"b\":2}", 3_000))))
                .isInstanceOf(OptimisticLockingFailureException.class);
        assertThat(sections.findById("terminal").orElseThrow().value()).isEqualTo("{\"a\":1}");
        assertThat(sections.findById("terminal").orElseThrow().revision()).isEqualTo(2);
    }

    @Test
    void aRefusalRollsBackEverythingTheSameWriteDidBeforeIt() {
        SettingSection first = ledger.write(c -> sections.save(SettingSection.defaults("editor", 1_000)));
        ledger.write(c -> sections.save(first.changed("{\"x\":1}", 2_000)));

        assertThatThrownBy(() -> ledger.write(c -> {
                    sections.save(SettingSection.defaults("terminal", 1_000));
                    return sections.save(first.changed("{\"stale\":true}", 3_000));
                }))
                .isInstanceOf(OptimisticLockingFailureException.class);
        assertThat(sections.findById("terminal")).isEmpty();
    }

    @Test
    void aConstraintViolationIsAStorageFaultOfThatWriteAndTheWriterGoesOn() {
        ledger.write(c -> sections.save(SettingSection.defaults("editor", 1_000)));

        // a second row under the same primary key: the writer treats any SQL error as a storage fault
        assertThatThrownBy(() ->
                        ledger.write(c -> ledger.jdbc().aggregates().insert(SettingSection.defaults("editor", 2_000))))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE))
                .hasMessageContaining("UNIQUE constraint failed: setting_section.section");
        // the revision CHECK (>= 1) holds for rows written around the repository too
        assertThatThrownBy(
                        () -> ledger.write(c -> JdbcClient.create(ledger.jdbc().dataSource())
                                .sql("UPDATE setting_section SET revision = 0 WHERE section = 'editor'")
                                .update()))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE))
                .hasMessageContaining("CHECK constraint failed");

        assertThat(sections.findById("editor").orElseThrow().updatedAt()).isEqualTo(1_000);
        assertThat(ledger.write(c -> sections.save(SettingSection.defaults("terminal", 3_000)))
                        .revision())
                .isEqualTo(1);
    }

    @Test
    void outsideTheWriterTheRepositoryReadsButCannotWrite() {
        assertThatThrownBy(() -> sections.save(SettingSection.defaults("editor", 1_000)))
                .isInstanceOf(DataAccessException.class)
                .hasMessageContaining("readonly");
        assertThat(sections.findById("editor")).isEmpty();
    }

    @Test
    void insideTheWriterTheRepositoryRunsOnTheWritersDurableConnection() {
        JdbcClient jdbc = JdbcClient.create(ledger.jdbc().dataSource());

        int[] inside = ledger.write(c -> new int[] {
            jdbc.sql("PRAGMA query_only").query(Integer.class).single(),
            jdbc.sql("PRAGMA synchronous").query(Integer.class).single()
        });
        String journal = ledger.write(
                c -> jdbc.sql("PRAGMA journal_mode").query(String.class).single());

        assertThat(inside).containsExactly(0, 2);
        assertThat(journal).isEqualTo("wal");
        assertThat(jdbc.sql("PRAGMA query_only").query(Integer.class).single()).isEqualTo(1);
    }
}
