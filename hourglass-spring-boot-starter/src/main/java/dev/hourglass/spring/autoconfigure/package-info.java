/**
 * The starter's auto-configuration: the client from {@code hourglass.*} and {@code
 * spring.data.redis.*}, listener discovery and lifecycle, the health indicator and metrics. Only
 * {@link dev.hourglass.spring.autoconfigure.HourglassAutoConfiguration} and {@link
 * dev.hourglass.spring.autoconfigure.HourglassProperties} are meant for applications; the rest may
 * change without notice.
 */
package dev.hourglass.spring.autoconfigure;
