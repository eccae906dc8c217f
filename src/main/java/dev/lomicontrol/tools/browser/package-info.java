/**
 * The browser tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.tools.browser;

import org.jspecify.annotations.NullMarked;
