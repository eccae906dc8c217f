package dev.lomicontrol.episodes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.testing.StoreSliceTest;
import dev.lomicontrol.testing.StoreSlices;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.domain.Limit;

/** {@link EpisodeRecords} on a real store: round trips, the open/closed queries with their order and limit, the table's constraints. */
@StoreSliceTest
class EpisodeRecordsTests {

    @Autowired
    Ledger ledger;

    EpisodeRecords records;

    @BeforeEach
    void repository() {
        records = StoreSlices.emptied(ledger, EpisodeRecords.class);
    }

    private static EpisodeRecord open(String id, String externalId, long at) {
        return new EpisodeRecord(id, externalId, at, null, null, 1, at);
    }

    private EpisodeRecord insert(EpisodeRecord record) {
        return ledger.write(c -> ledger.jdbc().aggregates().insert(record));
    }

    @Test
    void anInsertedRecordComesBackAndASaveUpdatesItInPlace() {
        insert(open("ep-1", "build", 1_000));
        ledger.write(c -> records.save(new EpisodeRecord("ep-1", "build", 1_000, 5_000L, "closed", 3, 4_000)));

        assertThat(records.findById("ep-1"))
                .contains(new EpisodeRecord("ep-1", "build", 1_000, 5_000L, "closed", 3, 4_000));
        assertThat(records.count()).isEqualTo(1);
    }

    @Test
    void openRecordsComeByExternalIdAndClosedOnesNewestFirstUpToTheLimit() {
        insert(open("ep-b", "zeta", 1_000));
        insert(open("ep-a", "alpha", 1_000));
        insert(new EpisodeRecord("ep-c", "c", 1_000, 3_000L, "expired", 1, 2_000));
        insert(new EpisodeRecord("ep-d", "d", 1_000, 4_000L, "closed", 1, 2_000));
        insert(new EpisodeRecord("ep-e", "e", 1_000, 4_000L, "shutdown", 1, 2_000));

        assertThat(records.findByClosedAtIsNullOrderByExternalId())
                .extracting(EpisodeRecord::id)
                .containsExactly("ep-a", "ep-b");
        assertThat(records.findByClosedAtIsNotNullOrderByClosedAtDescIdAsc(Limit.of(2)))
                .extracting(EpisodeRecord::id)
                .containsExactly("ep-d", "ep-e");
        assertThat(records.findByClosedAtIsNotNullOrderByClosedAtDescIdAsc(Limit.of(10)))
                .extracting(EpisodeRecord::id)
                .containsExactly("ep-d", "ep-e", "ep-c");
    }

    @Test
    void twoOpenRecordsUnderOneExternalIdAreRefusedButAClosedOneMayShareIt() {
        insert(open("ep-1", "build", 1_000));

        assertThatThrownBy(() -> insert(open("ep-2", "build", 2_000)))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE))
                .hasMessageContaining("UNIQUE constraint failed: episode.external_id");
        insert(new EpisodeRecord("ep-3", "build", 500, 900L, "closed", 1, 800));

        assertThat(records.findAll()).extracting(EpisodeRecord::id).containsExactlyInAnyOrder("ep-1", "ep-3");
    }

    @Test
    void theChecksRefuseAHalfClosedRecordAnUnknownReasonAndNoAttachment() {
        List<EpisodeRecord> bad = List.of(
                new EpisodeRecord("ep-1", "a", 1_000, 2_000L, null, 1, 1_000),
                new EpisodeRecord("ep-2", "b", 1_000, 2_000L, "vanished", 1, 1_000),
                new EpisodeRecord("ep-3", "c", 1_000, null, null, 0, 1_000),
                new EpisodeRecord("ep-4", "", 1_000, null, null, 1, 1_000));

        for (EpisodeRecord record : bad) {
            assertThatThrownBy(() -> insert(record))
                    .isInstanceOfSatisfying(
                            LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE))
                    .hasMessageContaining("CHECK constraint failed");
        }
        assertThat(records.count()).isZero();
    }
}
