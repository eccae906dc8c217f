package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The helper builds its catalog on a thread of its own, started once {@code initialize} is answered:
 * initialize never waits for it, tools/list does.
 */
class CatalogInBackgroundTests {

    private static final String INITIALIZE =
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
    private static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}";

    @Test
    void initializeIsAnsweredWhileTheCatalogIsStillBeingDerivedAndToolsListWaitsForIt() throws Exception {
        CountDownLatch derivationMayFinish = new CountDownLatch(1);
        List<ToolDefinition> standard = Catalog.standard().all();
        Catalog catalog = started(Catalog.deferred(() -> {
            try {
                derivationMayFinish.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return standard;
        }));
        InProcessServer helper = new InProcessServer(catalog);

        JsonNode initialized = helper.call(INITIALIZE);
        assertThat(initialized.path("result").path("protocolVersion").asString())
                .as("initialize answered while the catalog is still being derived")
                .isEqualTo("2025-11-25");
        assertThat(derivationMayFinish.getCount()).isEqualTo(1);

        CompletableFuture<JsonNode> listed = CompletableFuture.supplyAsync(() -> {
            try {
                return helper.call(LIST);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        derivationMayFinish.countDown();
        JsonNode tools = listed.get(30, TimeUnit.SECONDS).path("result").path("tools");
        assertThat(tools.size()).isEqualTo(standard.size());
        assertThat(tools.get(0).path("name").asString())
                .isEqualTo(standard.get(0).name());
    }

    @Test
    void theBackgroundCatalogListsExactlyWhatTheStandardOneLists() {
        for (ProtocolVersion version : ProtocolVersion.values()) {
            assertThat(started(Catalog.standardDeferred()).listResult(version))
                    .isEqualTo(Catalog.standard().listResult(version));
        }
    }

    @Test
    void aDerivationThatFailsFailsEveryUseWithItsCause() {
        Catalog broken = started(Catalog.deferred(() -> {
            throw new IllegalArgumentException("duplicate tool lomi_x");
        }));
        for (int use = 0; use < 2; use++) {
            assertThatThrownBy(() -> broken.find("lomi_status"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("could not be derived")
                    .cause()
                    .hasMessage("duplicate tool lomi_x");
        }
    }

    @Test
    void aDeferredCatalogDerivesNothingUntilItIsStartedAndThenOnlyOnce() {
        AtomicInteger derivations = new AtomicInteger();
        Catalog catalog = countingDeferred(derivations);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> derivations.get() == 0);

        catalog.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> derivations.get() == 1);
        catalog.start();
        assertThat(catalog.find("lomi_status")).isPresent();
        assertThat(catalog.all()).hasSize(Catalog.standard().all().size());
        assertThat(derivations).hasValue(1);
    }

    @Test
    void aDeferredCatalogNeverStartedIsDerivedAtItsFirstUse() {
        AtomicInteger derivations = new AtomicInteger();
        Catalog catalog = countingDeferred(derivations);

        assertThat(catalog.find("lomi_files_read")).isPresent();
        assertThat(derivations).hasValue(1);
    }

    /** The standard catalog, deferred, counting its derivations. */
    private static Catalog countingDeferred(AtomicInteger derivations) {
        List<ToolDefinition> standard = Catalog.standard().all();
        return Catalog.deferred(() -> {
            derivations.incrementAndGet();
            return standard;
        });
    }

    /** {@code catalog}, its building started now (as the helper starts it once initialize is answered). */
    private static Catalog started(Catalog catalog) {
        catalog.start();
        return catalog;
    }
}
