// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/events/event.h"
#include "core/timeline/report.h"
#include "core/timeline/seriesrecorder.h"
#include "core/util/jobtracker.h"

#include <QList>
#include <QPointer>
#include <QTimer>
#include <QWidget>

class QLabel;
class QPushButton;
class QTextBrowser;

namespace kf {

class TimeChart;
class TimelineLanes;

// A host's deployment timeline: its events as markers in lanes on one time axis (TimelineLanes)
// above stacked charts of what was measured meanwhile (GPU power, temperature, memory in use,
// each server's tok/s as its own line named by port and model: the recorder's live series and
// the stored minutes; blank where nothing was measured). Zoom from 5 minutes to 8 weeks (buttons, the wheel), drag to
// pan; "Now" follows the present. Clicking a marker shows the event's details and a button that opens the pane it came
// from (openPane()).
class TimelineView : public QWidget
{
    Q_OBJECT
public:
    static constexpr qint64 kMinSpanMs = 5LL * 60 * 1000;
    static constexpr qint64 kMaxSpanMs = 8LL * 7 * 24 * 3600 * 1000;

    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    // The live series (null: stored minutes only).
    void setRecorder(timeline::SeriesRecorder* recorder);
    // The host key (core/timeline/hostkey.h); empty: nothing to show.
    void setHost(const QString& host);
    QString host() const { return m_host; }

    // Shows [fromMs, toMs] and stops following the present.
    void setWindow(qint64 fromMs, qint64 toMs);
    // A window this wide ending now, following the present.
    void showLast(qint64 spanMs);
    // From the host's first event to now, following the present (1 h when there is none).
    void fitAll();
    // Zooms around aroundMs (factor < 1: in), within kMinSpanMs..kMaxSpanMs.
    void zoom(double factor, qint64 aroundMs);
    qint64 from() const { return m_from; }
    qint64 to() const { return m_to; }
    bool following() const { return m_following; }

    // Reads the window's events and stored minutes again (on a worker; eventsLoaded() after);
    // while following, the window first moves on to now.
    void reload();
    const QList<timeline::Event>& events() const { return m_events; }
    void selectEvent(int index);
    int selectedEvent() const { return m_selected; }
    QString detailsText() const;
    // The measured points drawn for one series now (for the report and tests); Series::Tokens
    // is drawn per server (serverSeries).
    QList<QPointF> seriesPoints(timeline::Series series, int columns) const;
    // The tok/s lines drawn now, one per server, labelled by port and model.
    QList<timeline::LabelledSeries> serverSeries(int columns) const;
    // Every series drawn now, as the HTML report takes them (a tok/s chart per server).
    QList<timeline::ReportSeries> reportSeries(int columns) const;

    TimelineLanes* lanes() const { return m_lanes; }
    const QList<TimeChart*>& charts() const { return m_charts; }

Q_SIGNALS:
    void openPane(const QString& pane);
    void eventsLoaded(int count);

protected:
    void wheelEvent(QWheelEvent* event) override;

private:
    // The window's lanes, range text and charts, then a reload soon.
    void applyWindow();
    void showWindow();
    void refreshCharts();
    void showDetails();

    QPointer<timeline::SeriesRecorder> m_recorder;
    QString m_host;
    qint64 m_from = 0;
    qint64 m_to = 1;
    bool m_following = true;
    QList<timeline::Event> m_events;
    QList<timeline::MinuteRow> m_minutes;
    QList<timeline::ServerMinuteRow> m_serverMinutes;
    int m_selected = -1;
    TimelineLanes* m_lanes;
    QList<TimeChart*> m_charts;
    QLabel* m_range;
    QTextBrowser* m_details;
    QPushButton* m_open;
    QTimer m_follow;
    QTimer m_reloadSoon;
    QTimer m_chartsSoon;
    JobTracker m_requests { this }; // cancelled by a host switch
    RequestHandle m_load;
    RequestHandle m_fit; // the first window of a host; a window chosen meanwhile wins
};

} // namespace kf
