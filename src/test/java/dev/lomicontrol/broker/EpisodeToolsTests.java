package dev.lomicontrol.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.pairing.Session;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/** {@code lomi_session_attach}, {@code lomi_session_detach} and {@code lomi_episodes} through the broker's dispatcher. */
class EpisodeToolsTests {

    @RegisterExtension
    final BrokerCallsFixture broker = BrokerCallsFixture.inTemporaryDirectory();

    @Test
    void attachAnswersTheEpisodeItOpenedWithTheReattachGrace() {
        JsonNode data = broker.ok(broker.session(), "lomi_session_attach", attach("thread-1"));

        assertThat(data.path("kind").asString()).isEqualTo("episode");
        assertThat(data.path("episodeId").asString()).hasSize(32);
        assertThat(data.path("externalId").asString()).isEqualTo("thread-1");
        assertThat(data.path("state").asString()).isEqualTo("attached");
        assertThat(data.path("resumed").asBoolean()).isFalse();
        assertThat(data.path("attachments").asInt()).isEqualTo(1);
        assertThat(data.path("openedAt").asString())
                .isEqualTo(broker.clock.instant().toString());
        assertThat(data.path("reattachGraceSeconds").asLong()).isEqualTo(900);
        assertThat(data.path("released").isNull()).isTrue();
    }

    @Test
    void theSameExternalIdFromANewSessionAfterConnectionLossResumesTheEpisode() {
        Session first = broker.session();
        JsonNode opened = broker.ok(first, "lomi_session_attach", attach("thread-1"));
        broker.calls.sessionEnded(first);
        broker.clock.advance(Duration.ofMinutes(5));

        JsonNode resumed = broker.ok(broker.session(), "lomi_session_attach", attach("thread-1"));

        assertThat(resumed.path("episodeId").asString())
                .isEqualTo(opened.path("episodeId").asString());
        assertThat(resumed.path("resumed").asBoolean()).isTrue();
        assertThat(resumed.path("attachments").asInt()).isEqualTo(2);
        assertThat(resumed.path("openedAt").asString())
                .isEqualTo(opened.path("openedAt").asString());
    }

    @Test
    void attachingAnotherIdReportsTheEpisodeItLeftDetached() {
        Session session = broker.session();
        broker.ok(session, "lomi_session_attach", attach("thread-1"));

        JsonNode second = broker.ok(session, "lomi_session_attach", attach("thread-2"));

        assertThat(second.path("released").path("externalId").asString()).isEqualTo("thread-1");
        assertThat(second.path("released").path("state").asString()).isEqualTo("detached");
        assertThat(broker.ok(session, "lomi_episodes", "{}").path("detached").asInt())
                .isEqualTo(1);
    }

    @Test
    void anyCallOnTheHoldingSessionKeepsItsEpisodeAlive() {
        Session session = broker.session();
        broker.ok(session, "lomi_session_attach", attach("thread-1"));
        broker.clock.advance(Duration.ofMinutes(40));

        broker.call(session, "lomi_workspace_list", "{\"limit\":0}");

        JsonNode mine = broker.ok(session, "lomi_episodes", "{}").path("mine");
        assertThat(mine.path("lastActivity").asString())
                .isEqualTo(broker.clock.instant().toString());
        assertThat(mine.path("lastActivitySecondsAgo").asLong()).isZero();
    }

    @Test
    void detachWithoutAnIdClosesTheCallersOwnEpisodeDeliberately() {
        Session session = broker.session();
        broker.ok(session, "lomi_session_attach", attach("thread-1"));

        JsonNode closed = broker.ok(session, "lomi_session_detach", "{}");

        assertThat(closed.path("kind").asString()).isEqualTo("episode");
        assertThat(closed.path("state").asString()).isEqualTo("closed");
        assertThat(closed.path("closeReason").asString()).isEqualTo("closed");
        assertThat(closed.path("ending").asString()).isEqualTo("closed");
        assertThat(broker.refused(session, "lomi_session_detach", "{}")).isEqualTo(ErrorCode.TARGET_NOT_FOUND);
    }

    @Test
    void detachingAnotherSessionsAttachedEpisodeIsNotFoundLikeAnUnknownId() {
        broker.ok(broker.session(), "lomi_session_attach", attach("theirs"));
        Session stranger = broker.session();

        JsonNode foreign = broker.call(stranger, "lomi_session_detach", "{\"externalId\":\"theirs\"}");

        assertThat(foreign.path("code").asString()).isEqualTo("TARGET_NOT_FOUND");
        assertThat(broker.refused(stranger, "lomi_session_detach", "{\"externalId\":\"nobody\"}"))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(broker.ok(stranger, "lomi_episodes", "{}").path("attached").asInt())
                .isEqualTo(1);
    }

    @Test
    void theReaperExpiresADetachedEpisodeAndTheListSaysItWasInterrupted() {
        Session gone = broker.session();
        broker.ok(gone, "lomi_session_attach", attach("thread-1"));
        broker.calls.sessionEnded(gone);
        broker.clock.advance(Duration.ofMinutes(16));

        broker.episodes.reap();

        JsonNode list = broker.ok(broker.session(), "lomi_episodes", "{}");
        assertThat(list.path("episodes")).isEmpty();
        assertThat(list.path("recentlyClosed")).singleElement().satisfies(e -> {
            assertThat(e.path("externalId").asString()).isEqualTo("thread-1");
            assertThat(e.path("closeReason").asString()).isEqualTo("expired");
            assertThat(e.path("ending").asString()).isEqualTo("interrupted");
        });
    }

    @Test
    void theEpisodeListShowsMineAndTheHoldingSessionOnlyOfTheCallersOwn() {
        Session me = broker.session();
        Session other = broker.session();
        Session gone = broker.session();
        broker.ok(me, "lomi_session_attach", attach("a-mine"));
        broker.ok(other, "lomi_session_attach", attach("b-theirs"));
        broker.ok(gone, "lomi_session_attach", attach("c-detached"));
        broker.calls.sessionEnded(gone);
        Session closer = broker.session();
        broker.ok(closer, "lomi_session_attach", attach("d-done"));
        broker.ok(closer, "lomi_session_detach", "{\"externalId\":\"d-done\"}");

        JsonNode list = broker.ok(me, "lomi_episodes", "{}");

        assertThat(list.path("kind").asString()).isEqualTo("episodes");
        assertThat(list.path("attached").asInt()).isEqualTo(2);
        assertThat(list.path("detached").asInt()).isEqualTo(1);
        List<JsonNode> episodes =
                List.copyOf(list.path("episodes").valueStream().toList());
        assertThat(episodes)
                .extracting(e -> e.path("externalId").asString())
                .containsExactly("a-mine", "b-theirs", "c-detached");
        assertThat(episodes.get(0).path("mine").asBoolean()).isTrue();
        assertThat(episodes.get(0).path("held").asBoolean()).isTrue();
        assertThat(episodes.get(0).path("holdingSession").asString())
                .isEqualTo(me.id().value());
        assertThat(episodes.get(1).path("mine").asBoolean()).isFalse();
        assertThat(episodes.get(1).path("held").asBoolean()).isTrue();
        assertThat(episodes.get(1).path("holdingSession").isNull()).isTrue();
        assertThat(episodes.get(2).path("held").asBoolean()).isFalse();
        assertThat(episodes.get(2).path("state").asString()).isEqualTo("detached");
        assertThat(list.toString())
                .doesNotContain(other.id().value())
                .doesNotContain(gone.id().value());
        assertThat(list.path("mine").path("externalId").asString()).isEqualTo("a-mine");
        assertThat(list.path("recentlyClosed"))
                .singleElement()
                .satisfies(e -> assertThat(e.path("closeReason").asString()).isEqualTo("closed"));
        assertThat(broker.ok(closer, "lomi_episodes", "{}").path("mine").isNull())
                .isTrue();
    }

    @Test
    void invalidExternalIdsAreRefusedThroughTheTool() {
        Session session = broker.session();
        for (String id : List.of(
                "\"\"", "\"   \"", "\"two\\nlines\"", "\"bell\\u0007\"", "\"" + "x".repeat(257) + "\"", "5", "null")) {
            assertThat(broker.refused(session, "lomi_session_attach", "{\"externalId\":" + id + "}"))
                    .as(id)
                    .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        }
        assertThat(broker.refused(session, "lomi_session_attach", "{}")).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.refused(session, "lomi_session_detach", "{\"externalId\":\"a\\rb\"}"))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.ok(session, "lomi_episodes", "{}").path("episodes")).isEmpty();
    }

    private static String attach(String externalId) {
        return "{\"externalId\":\"" + externalId + "\"}";
    }
}
