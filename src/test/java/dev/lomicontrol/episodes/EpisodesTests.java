package dev.lomicontrol.episodes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.LedgerProperties;
import dev.lomicontrol.testing.MutableClock;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The episode board on a real SQLite store, with a clock the test moves. */
class EpisodesTests {

    static final Duration GRACE = Duration.ofMinutes(15);

    @TempDir
    Path temp;

    final MutableClock clock = MutableClock.startingAt("2026-12-01T09:00:00Z");
    final SecureRandom random = new SecureRandom();
    Ledger ledger;
    Episodes episodes;

    @BeforeEach
    void open() {
        ledger = Ledger.open(temp.resolve("agent-control"), LedgerProperties.defaults(), clock, random);
        episodes = Episodes.open(ledger, clock, EpisodesProperties.defaults(), random);
    }

    @AfterEach
    void close() {
        if (ledger != null) {
            ledger.close();
        }
    }

    @Test
    void attachingANewExternalIdOpensAnEpisodeHeldByTheCaller() {
        SessionId session = session();

        AttachResult.Attached attached = attached(episodes.attach(session, id("thread-1")));

        assertThat(attached.resumed()).isFalse();
        assertThat(attached.released()).isEmpty();
        Episode episode = attached.episode();
        assertThat(episode.state()).isEqualTo(EpisodeState.ATTACHED);
        assertThat(episode.holder()).contains(session);
        assertThat(episode.attachments()).isEqualTo(1);
        assertThat(episode.openedAt()).isEqualTo(clock.instant());
        assertThat(storedRow(episode.id())).containsExactly("open", "1");
        assertThat(episodes.reattachGrace()).isEqualTo(GRACE);
    }

    @Test
    void reattachingFromANewSessionResumesTheSameEpisodeWithOneMoreAttachmentAndTheSameOpenedAt() {
        SessionId first = session();
        Episode opened = attached(episodes.attach(first, id("thread-1"))).episode();
        episodes.sessionEnded(first);
        clock.advance(Duration.ofMinutes(3));
        SessionId second = session();

        AttachResult.Attached resumed = attached(episodes.attach(second, id("thread-1")));

        assertThat(resumed.resumed()).isTrue();
        assertThat(resumed.episode().id()).isEqualTo(opened.id());
        assertThat(resumed.episode().attachments()).isEqualTo(2);
        assertThat(resumed.episode().openedAt()).isEqualTo(opened.openedAt());
        assertThat(resumed.episode().holder()).contains(second);
        assertThat(storedRow(opened.id())).containsExactly("open", "2");
    }

    @Test
    void attachingAnotherIdDetachesTheFirstAndKeepsItResumable() {
        SessionId session = session();
        Episode first = attached(episodes.attach(session, id("thread-1"))).episode();

        AttachResult.Attached second = attached(episodes.attach(session, id("thread-2")));

        assertThat(second.released()).map(Episode::id).contains(first.id());
        assertThat(second.released().orElseThrow().state()).isEqualTo(EpisodeState.DETACHED);
        EpisodeBoard board = episodes.board(session);
        assertThat(board.live())
                .extracting(e -> e.externalId().value(), Episode::state)
                .containsExactly(tuple("thread-1", EpisodeState.DETACHED), tuple("thread-2", EpisodeState.ATTACHED));
        assertThat(board.mine()).map(e -> e.externalId().value()).contains("thread-2");
        assertThat(attached(episodes.attach(session(), id("thread-1")))
                        .episode()
                        .id())
                .isEqualTo(first.id());
    }

    @Test
    void attachingTheIdTheSessionAlreadyHoldsChangesNothingButActivity() {
        SessionId session = session();
        Episode opened = attached(episodes.attach(session, id("thread-1"))).episode();
        clock.advance(Duration.ofSeconds(30));

        AttachResult.Attached again = attached(episodes.attach(session, id("thread-1")));

        assertThat(again.episode().id()).isEqualTo(opened.id());
        assertThat(again.episode().attachments()).isEqualTo(1);
        assertThat(again.episode().lastActivity()).isEqualTo(clock.instant());
    }

    @Test
    void losingTheConnectionDetachesTheEpisodeWithoutClosingIt() {
        SessionId session = session();
        Episode opened = attached(episodes.attach(session, id("thread-1"))).episode();
        clock.advance(Duration.ofSeconds(10));

        Optional<Episode> detached = episodes.sessionEnded(session);

        assertThat(detached).map(Episode::state).contains(EpisodeState.DETACHED);
        assertThat(detached.orElseThrow().detachedSince()).contains(clock.instant());
        EpisodeBoard board = episodes.board(session);
        assertThat(board.live()).singleElement().satisfies(e -> {
            assertThat(e.state()).isEqualTo(EpisodeState.DETACHED);
            assertThat(e.holder()).isEmpty();
        });
        assertThat(board.mine()).isEmpty();
        assertThat(board.recentlyClosed()).isEmpty();
        assertThat(storedRow(opened.id())).containsExactly("open", "1");
    }

    @Test
    void trafficOnTheHoldingSessionKeepsTheEpisodeAlive() {
        SessionId session = session();
        episodes.attach(session, id("thread-1"));
        clock.advance(Duration.ofHours(2));

        episodes.touch(session);
        episodes.touch(session());

        assertThat(episodes.board(session).mine().orElseThrow().lastActivity()).isEqualTo(clock.instant());
        clock.advance(GRACE.multipliedBy(4));
        assertThat(episodes.reap()).isEmpty();
    }

    @Test
    void aDeliberateDetachClosesTheCallersEpisodeAsClosedAndAnotherAttachOpensAFreshOne() {
        SessionId session = session();
        Episode opened = attached(episodes.attach(session, id("thread-1"))).episode();
        clock.advance(Duration.ofMinutes(1));

        Episode closed = closed(episodes.detach(session, Optional.empty()));

        assertThat(closed.id()).isEqualTo(opened.id());
        assertThat(closed.state()).isEqualTo(EpisodeState.CLOSED);
        assertThat(closed.closeReason()).contains(CloseReason.CLOSED);
        assertThat(closed.closeReason().orElseThrow().ending()).isEqualTo("closed");
        assertThat(closed.closedAt()).contains(clock.instant());
        assertThat(storedRow(opened.id())).containsExactly("closed", "1");
        EpisodeBoard board = episodes.board(session);
        assertThat(board.live()).isEmpty();
        assertThat(board.recentlyClosed()).extracting(Episode::id).containsExactly(opened.id());
        AttachResult.Attached fresh = attached(episodes.attach(session, id("thread-1")));
        assertThat(fresh.resumed()).isFalse();
        assertThat(fresh.episode().id()).isNotEqualTo(opened.id());
    }

    @Test
    void detachWithoutAnIdWhenHoldingNothingIsTargetNotFound() {
        DetachResult result = episodes.detach(session(), Optional.empty());

        assertThat(result)
                .isInstanceOfSatisfying(
                        DetachResult.Refused.class, r -> assertThat(r.code()).isEqualTo(ErrorCode.TARGET_NOT_FOUND));
    }

    @Test
    void anotherSessionsAttachedEpisodeIsNotFoundLikeAnUnknownOne() {
        episodes.attach(session(), id("theirs"));
        SessionId stranger = session();

        DetachResult foreign = episodes.detach(stranger, Optional.of(id("theirs")));
        DetachResult unknown = episodes.detach(stranger, Optional.of(id("nobody")));

        assertThat(foreign).isInstanceOf(DetachResult.Refused.class);
        assertThat(unknown).isInstanceOf(DetachResult.Refused.class);
        assertThat(((DetachResult.Refused) foreign).code()).isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(((DetachResult.Refused) unknown).code()).isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(episodes.board(stranger).live())
                .singleElement()
                .extracting(Episode::state)
                .isEqualTo(EpisodeState.ATTACHED);
    }

    @Test
    void aDetachedEpisodeCanBeClosedByNameFromAnotherSession() {
        SessionId gone = session();
        episodes.attach(gone, id("thread-1"));
        episodes.sessionEnded(gone);

        Episode closed = closed(episodes.detach(session(), Optional.of(id("thread-1"))));

        assertThat(closed.closeReason()).contains(CloseReason.CLOSED);
    }

    @Test
    void theReaperClosesAnEpisodeDetachedLongerThanTheGraceAsExpiredAndNotBefore() {
        SessionId gone = session();
        Episode opened = attached(episodes.attach(gone, id("thread-1"))).episode();
        SessionId stays = session();
        episodes.attach(stays, id("thread-2"));
        episodes.sessionEnded(gone);

        clock.advance(GRACE);
        assertThat(episodes.reap()).isEmpty();
        clock.advance(Duration.ofSeconds(1));
        List<Episode> reaped = episodes.reap();

        assertThat(reaped).singleElement().satisfies(e -> {
            assertThat(e.id()).isEqualTo(opened.id());
            assertThat(e.closeReason()).contains(CloseReason.EXPIRED);
            assertThat(e.closeReason().orElseThrow().ending()).isEqualTo("interrupted");
        });
        assertThat(storedRow(opened.id())).containsExactly("expired", "1");
        assertThat(episodes.board(stays).live())
                .extracting(e -> e.externalId().value())
                .containsExactly("thread-2");
        assertThat(episodes.reap()).isEmpty();
    }

    @Test
    void reattachingWithinTheGraceSavesTheEpisodeFromTheReaper() {
        SessionId gone = session();
        episodes.attach(gone, id("thread-1"));
        episodes.sessionEnded(gone);
        clock.advance(GRACE.minusSeconds(1));

        SessionId back = session();
        episodes.attach(back, id("thread-1"));
        clock.advance(GRACE.multipliedBy(2));

        assertThat(episodes.reap()).isEmpty();
        assertThat(episodes.board(back).mine()).map(Episode::attachments).contains(2);
    }

    @Test
    void shutdownClosesEveryEpisodeAsShutdownAndRefusesLaterAttaches() {
        SessionId holder = session();
        Episode attached = attached(episodes.attach(holder, id("thread-1"))).episode();
        SessionId gone = session();
        Episode detached = attached(episodes.attach(gone, id("thread-2"))).episode();
        episodes.sessionEnded(gone);

        List<Episode> closed = episodes.shutdown();

        assertThat(closed).extracting(Episode::id).containsExactlyInAnyOrder(attached.id(), detached.id());
        assertThat(closed).allSatisfy(e -> assertThat(e.closeReason()).contains(CloseReason.SHUTDOWN));
        assertThat(storedRow(attached.id())).containsExactly("shutdown", "1");
        assertThat(storedRow(detached.id())).containsExactly("shutdown", "1");
        assertThat(episodes.attach(holder, id("thread-3")))
                .isInstanceOfSatisfying(
                        AttachResult.Refused.class, r -> assertThat(r.code()).isEqualTo(ErrorCode.APP_CLOSING));
        assertThat(episodes.sessionEnded(holder)).isEmpty();
        assertThat(episodes.shutdown()).isEmpty();
    }

    @Test
    void closedAndInterruptedSurviveAReopenOfTheStoreAndAnUnclosedEpisodeComesBackResumable() {
        SessionId a = session();
        Episode done = attached(episodes.attach(a, id("done"))).episode();
        episodes.detach(a, Optional.empty());
        SessionId b = session();
        Episode interrupted = attached(episodes.attach(b, id("interrupted"))).episode();
        episodes.sessionEnded(b);
        clock.advance(GRACE.plusSeconds(1));
        episodes.reap();
        SessionId c = session();
        Episode killed = attached(episodes.attach(c, id("killed"))).episode();
        ledger.close();
        ledger = null;

        clock.advance(Duration.ofMinutes(1));
        ledger = Ledger.open(temp.resolve("agent-control"), LedgerProperties.defaults(), clock, random);
        episodes = Episodes.open(ledger, clock, EpisodesProperties.defaults(), random);
        SessionId after = session();
        EpisodeBoard board = episodes.board(after);

        assertThat(board.recentlyClosed())
                .extracting(Episode::id, e -> e.closeReason().orElseThrow().ending())
                .containsExactlyInAnyOrder(tuple(done.id(), "closed"), tuple(interrupted.id(), "interrupted"));
        assertThat(board.live()).singleElement().satisfies(e -> {
            assertThat(e.id()).isEqualTo(killed.id());
            assertThat(e.state()).isEqualTo(EpisodeState.DETACHED);
            assertThat(e.detachedSince()).contains(clock.instant());
        });
        AttachResult.Attached resumed = attached(episodes.attach(after, id("killed")));
        assertThat(resumed.resumed()).isTrue();
        assertThat(resumed.episode().openedAt()).isEqualTo(killed.openedAt());
        assertThat(resumed.episode().attachments()).isEqualTo(2);
    }

    @Test
    void anEpisodeLeftOpenByAKilledBrokerExpiresAfterTheGraceFromTheRestart() {
        episodes.attach(session(), id("killed"));
        ledger.close();
        clock.advance(Duration.ofHours(1));
        ledger = Ledger.open(temp.resolve("agent-control"), LedgerProperties.defaults(), clock, random);
        episodes = Episodes.open(ledger, clock, EpisodesProperties.defaults(), random);

        assertThat(episodes.reap()).isEmpty();
        clock.advance(GRACE.plusSeconds(1));
        assertThat(episodes.reap())
                .singleElement()
                .extracting(e -> e.closeReason().orElseThrow())
                .isEqualTo(CloseReason.EXPIRED);
    }

    @Test
    void aLaterAttachOfAnIdHeldByAnotherLiveSessionTakesItOver() {
        SessionId old = session();
        Episode opened = attached(episodes.attach(old, id("thread-1"))).episode();
        SessionId replacement = session();

        AttachResult.Attached taken = attached(episodes.attach(replacement, id("thread-1")));

        assertThat(taken.episode().id()).isEqualTo(opened.id());
        assertThat(taken.episode().holder()).contains(replacement);
        assertThat(taken.episode().attachments()).isEqualTo(2);
        assertThat(episodes.board(old).mine()).isEmpty();
        assertThat(episodes.sessionEnded(old)).isEmpty();
        assertThat(episodes.board(replacement).mine()).map(Episode::state).contains(EpisodeState.ATTACHED);
    }

    @Test
    void concurrentAttachesOfOneIdOpenExactlyOneEpisode() throws Exception {
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<AttachResult>> results = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            SessionId session = session();
            results.add(pool.submit(() -> {
                start.await();
                return episodes.attach(session, id("shared"));
            }));
        }
        start.countDown();
        List<EpisodeId> ids = new ArrayList<>();
        for (Future<AttachResult> result : results) {
            ids.add(attached(result.get()).episode().id());
        }
        pool.shutdown();

        assertThat(ids).containsOnly(ids.get(0));
        assertThat(episodes.board(session()).live())
                .singleElement()
                .extracting(Episode::attachments)
                .isEqualTo(threads);
    }

    @Test
    void theBoardShowsMineOnlyForTheHolder() {
        SessionId holder = session();
        SessionId other = session();
        episodes.attach(holder, id("thread-1"));

        assertThat(episodes.board(holder).mine())
                .map(e -> e.externalId().value())
                .contains("thread-1");
        assertThat(episodes.board(other).mine()).isEmpty();
        assertThat(episodes.board(other).live())
                .singleElement()
                .satisfies(e -> assertThat(e.heldBy(holder)).isTrue());
    }

    private SessionId session() {
        return SessionId.random(random);
    }

    private static ExternalId id(String value) {
        return new ExternalId(value);
    }

    private static AttachResult.Attached attached(AttachResult result) {
        assertThat(result).isInstanceOf(AttachResult.Attached.class);
        return (AttachResult.Attached) result;
    }

    private static Episode closed(DetachResult result) {
        assertThat(result).isInstanceOf(DetachResult.Closed.class);
        return ((DetachResult.Closed) result).episode();
    }

    /** The durable record: close reason ("open" while open) and attachments. */
    private List<String> storedRow(EpisodeId id) {
        return ledger.read(c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "SELECT coalesce(close_reason, 'open'), attachments FROM episode WHERE id = ?")) {
                s.setString(1, id.value());
                try (ResultSet rs = s.executeQuery()) {
                    assertThat(rs.next()).as("episode row " + id).isTrue();
                    return List.of(rs.getString(1), Long.toString(rs.getLong(2)));
                }
            }
        });
    }
}
