/**
 * The browser tools' broker handlers over the headless Chromium of the {@code browser} module.
 */
@NullMarked
package dev.lomicontrol.browser.tools;

import org.jspecify.annotations.NullMarked;
