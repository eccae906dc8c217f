package dev.lomicontrol.chat;

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

/** {@link ConnectionRecords} on a real store: round trip, order, delete, and the table's checks (a key is never a column). */
@StoreSliceTest
class ConnectionRecordsTests {

    @Autowired
    Ledger ledger;

    ConnectionRecords connections;

    @BeforeEach
    void repository() {
        connections = StoreSlices.emptied(ledger, ConnectionRecords.class);
    }

    private static ConnectionRecord connection(String id, String kind, String env, String file, int maxTokens) {
        return new ConnectionRecord(id, kind, "http://127.0.0.1:1/v1", "m", env, file, maxTokens, 1_000);
    }

    private ConnectionRecord insert(ConnectionRecord record) {
        return ledger.write(c -> ledger.jdbc().aggregates().insert(record));
    }

    @Test
    void connectionsComeBackByIdAndARemovedOneIsGone() {
        insert(connection("zz", "anthropic", null, "/keys/a", 1024));
        insert(connection("aa", "openai", "OPENAI_KEY", null, 64));
        ledger.write(c -> {
            connections.deleteById("zz");
            return null;
        });
        insert(connection("mm", "openai", null, null, 1));

        assertThat(connections.findAllByOrderById())
                .extracting(ConnectionRecord::id)
                .containsExactly("aa", "mm");
        assertThat(connections.findById("aa").orElseThrow().connection().apiKeyEnv())
                .contains("OPENAI_KEY");
        assertThat(connections.existsById("zz")).isFalse();
    }

    @Test
    void anUnknownKindTooManyTokensOrTwoKeySourcesAreRefused() {
        List<ConnectionRecord> bad = List.of(
                connection("a", "gemini", null, null, 1),
                connection("b", "openai", null, null, 0),
                connection("c", "openai", null, null, 1_048_577),
                connection("d", "openai", "ENV", "/file", 1));

        for (ConnectionRecord record : bad) {
            assertThatThrownBy(() -> insert(record))
                    .isInstanceOfSatisfying(
                            LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE))
                    .hasMessageContaining("CHECK constraint failed");
        }
        insert(connection("e", "openai", null, null, 1));
        assertThatThrownBy(() -> insert(connection("e", "anthropic", null, null, 1)))
                .hasMessageContaining("UNIQUE constraint failed");
        assertThat(connections.findAll()).extracting(ConnectionRecord::id).containsExactly("e");
    }
}
