package dev.lomicontrol.tools;

import java.util.Optional;

/**
 * Whether this host qualifies for one declared tool, as {@code lomi_status} reports it per
 * capability (the reference's {@code capabilities[].qualified}): a tool with a {@link HostNeed}
 * this host lacks is {@code qualified=false} with the {@link HostQualification} reason, e.g. the
 * Android tools naming a missing {@code /dev/kvm}, emulator or adb. Probed on each call (a few file
 * checks), so it follows the host.
 *
 * @param tool the tool name
 * @param need what the tool needs from the host ({@link HostNeed#NONE}: nothing beyond the broker)
 * @param qualified whether this host can serve it
 * @param reason why not, when not
 */
public record HostCapability(String tool, HostNeed need, boolean qualified, Optional<String> reason) {

    public static HostCapability of(ToolSpec<?> spec) {
        Optional<String> reason = HostQualification.reason(spec);
        return new HostCapability(spec.name(), spec.host(), reason.isEmpty(), reason);
    }
}
