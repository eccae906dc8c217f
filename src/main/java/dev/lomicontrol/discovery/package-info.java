/**
 * Discovery (SPEC §3.1–3.3): the broker's persistent Ed25519 registration key and the signed
 * {@code discovery.json} that tells an MCP helper where the broker listens, with every check the
 * helper makes before trusting it. Entry points: {@link dev.lomicontrol.discovery.RegistrationKey}
 * and {@link dev.lomicontrol.discovery.DiscoveryFile}.
 */
@NullMarked
package dev.lomicontrol.discovery;

import org.jspecify.annotations.NullMarked;
