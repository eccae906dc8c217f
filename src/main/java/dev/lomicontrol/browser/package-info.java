/**
 * The headless Chromium engine behind the browser tools (SPEC §10 "Browser"): one Chromium process
 * per connection with a fresh private profile, driven over the Chrome DevTools Protocol on
 * {@code --remote-debugging-pipe} (no TCP port), origin rules enforced on every paused request
 * ({@code Fetch.requestPaused}), bounded semantic snapshots with refs valid for one snapshot, log
 * rings, screenshots, same-origin downloads and file-input uploads. A plain library: it sees
 * {@code dev.lomicontrol.core} and Jackson only. Public entry point: {@link dev.lomicontrol.browser.Browsers}.
 */
@NullMarked
package dev.lomicontrol.browser;

import org.jspecify.annotations.NullMarked;
