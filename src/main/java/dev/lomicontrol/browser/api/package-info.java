/**
 * The browser tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.browser.api;

import org.jspecify.annotations.NullMarked;
