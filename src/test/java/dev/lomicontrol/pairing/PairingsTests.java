package dev.lomicontrol.pairing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.testing.MutableClock;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PairingsTests {

    final MutableClock clock = MutableClock.startingAt("2026-11-30T10:00:00Z");
    final Pairings pairings = new Pairings(clock, new SecureRandom());

    @Test
    void aRequestOverTheSetPendingCapIsRefusedNamingTheSettingUntilOneIsDecided() {
        assertThat(pairings.maxPending()).isEqualTo(Pairings.DEFAULT_MAX_PENDING);
        pairings.setMaxPending(4);
        for (int i = 0; i < 4; i++) {
            pairings.submit("client-" + i, "ab".repeat(32), 100 + i);
        }
        assertThatThrownBy(() -> pairings.submit("client-5", "cd".repeat(32), 200))
                .isInstanceOfSatisfying(LomiException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
                    assertThat(e.getMessage())
                            .contains("4 pairing requests are already pending")
                            .contains("lomi.control.max-pending-pairings=4")
                            .contains("asks again by itself");
                });

        pairings.deny(pairings.pending().get(0).id());

        assertThat(pairings.submit("client-5", "cd".repeat(32), 200).request().clientLabel())
                .isEqualTo("client-5");
    }

    @Test
    void aRequestExpiresAfterTwoMinutesAndCannotBeApprovedLater() {
        Pairings.Pending pending = pairings.submit("claude", "ab".repeat(32), 42);
        clock.advance(Duration.ofSeconds(120));

        assertThat(pairings.pending()).isEmpty();
        assertThat(pending.decision()).isCompletedWithValueMatching(d -> d instanceof Decision.Denied);
        assertThatThrownBy(() -> pairings.approve(
                        pending.request().id(), Optional.empty(), Optional.empty(), name -> Optional.empty(), Set::of))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TARGET_NOT_FOUND));
    }

    @Test
    void approvalWithoutFlagsGrantsTheProjectsThatExistNowNotLaterOnesAndTheFullScopeSet() {
        Pairings.Pending pending = pairings.submit("claude", "ab".repeat(32), 42);
        java.util.Set<ProjectId> existing = new java.util.HashSet<>(Set.of(new ProjectId("prj-now")));

        Grant grant = pairings.approve(
                pending.request().id(),
                Optional.empty(),
                Optional.empty(),
                name -> Optional.empty(),
                () -> Set.copyOf(existing));
        existing.add(new ProjectId("prj-later"));

        assertThat(grant.allProjects()).isFalse();
        assertThat(grant.covers(new ProjectId("prj-now"))).isTrue();
        assertThat(grant.covers(new ProjectId("prj-later")))
                .as("a project added after the approval (F8)")
                .isFalse();
        assertThat(grant.scopes()).isEqualTo(Scopes.all()).doesNotContain(Scopes.TERMINAL_UNSANDBOXED);
        assertThat(pending.decision()).isCompletedWithValue(new Decision.Approved(grant));
    }

    @Test
    void flagsNarrowTheGrantAndScopeDependenciesAreEnforced() {
        Pairings.Pending pending = pairings.submit("claude", "ab".repeat(32), 42);
        String id = pending.request().id();

        assertThatThrownBy(() -> pairings.approve(
                        id,
                        Optional.empty(),
                        Optional.of(List.of("workspace.read", "files.mutate")),
                        n -> Optional.empty(),
                        Set::of))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.getMessage()).contains("files.mutate needs files.read"));
        assertThatThrownBy(() -> pairings.approve(
                        id, Optional.of(List.of("nope")), Optional.empty(), n -> Optional.empty(), Set::of))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TARGET_NOT_FOUND));
        Grant grant = pairings.approve(
                id,
                Optional.of(List.of("web")),
                Optional.of(List.of("workspace.read", "files.read")),
                n -> n.equals("web") ? Optional.of(new ProjectId("prj-1")) : Optional.empty(),
                Set::of);

        assertThat(grant.allProjects()).isFalse();
        assertThat(grant.projects()).containsExactly(new ProjectId("prj-1"));
        assertThat(grant.scopes()).isEqualTo(Set.of("workspace.read", "files.read"));
        assertThat(grant.covers(new ProjectId("prj-2"))).isFalse();
    }

    @Test
    void yoloApprovesPendingAndNewRequestsWithTheFullGrant() {
        Pairings.Pending waiting = pairings.submit("claude", "ab".repeat(32), 42);

        pairings.setYolo(true);
        Pairings.Pending later = pairings.submit("codex", "cd".repeat(32), 43);

        assertThat(waiting.decision()).isCompletedWithValue(new Decision.Approved(Grant.full()));
        assertThat(later.decision()).isCompletedWithValue(new Decision.Approved(Grant.full()));
        assertThat(pairings.pending()).isEmpty();
    }
}
