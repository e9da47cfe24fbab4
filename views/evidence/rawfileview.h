// SPDX-License-Identifier: MIT
// Raw evidence viewer: maps the file (core's MappedFile), indexes newlines in slices on
// the GUI thread's idle time and paints only the visible lines, so a GB log
// opens at once. Shows a RawRef's lines highlighted and searches with
// next/previous.
#pragma once

#include "bundle/mapped_file.h"
#include "views/evidence/linecheckpoints.h"
#include "views/evidence/rawlineindex.h"
#include "model.h"

#include <QAbstractScrollArea>
#include <QFile>

#include <map>
#include <optional>

namespace fl {

class RawFileView : public QAbstractScrollArea
{
    Q_OBJECT
public:
    explicit RawFileView(QWidget* parent = nullptr);

    // Returns false (and sets errorString) when the file cannot be mapped.
    [[nodiscard]] bool open(const QString& diskPath, const QString& displayName = {});
    void close();
    QString diskPath() const { return m_path; }
    QString displayName() const { return m_name; }
    QString errorString() const { return m_error; }
    bool indexComplete() const { return m_index.complete(); }
    bool checkpointsComplete() const { return m_checkpoints.complete(); }
    // A go-to-line asked for before the checkpoints reached it is done when they do.
    bool goToLinePending() const { return m_pendingLine.has_value(); }
    uint64_t lineCount() const { return m_index.lineCount(); }

    // 1-based, like RawRef::line and what people type.
    void goToLine(uint64_t line);
    // Highlights the ref's bytes and scrolls its first line into view.
    void showRef(const RawRef& ref);
    uint64_t currentLine() const { return m_currentLine + 1; }
    uint64_t firstVisibleLine() const;
    std::pair<uint64_t, uint64_t> highlight() const { return {m_hlBegin, m_hlEnd}; }

    // Next/previous occurrence of `text` after/before the current match.
    // Returns false (and keeps the position) when there is none.
    [[nodiscard]] bool find(const QString& text, bool forward = true, bool caseSensitive = false);
    std::pair<uint64_t, uint64_t> currentMatch() const { return {m_matchBegin, m_matchEnd}; }
    QString lineText(uint64_t line) const;  // 1-based

    // Reviewer bookmarks of this file: 1-based line -> note (may be empty).
    // Drawn as a marker in the gutter, the note in the line's tooltip.
    void setBookmarks(std::map<uint64_t, QString> bookmarks);
    const std::map<uint64_t, QString>& bookmarks() const { return m_bookmarks; }
    uint64_t lineAtY(int y) const;  // 1-based, 0 past the end
    // Long lines wrap at the viewport's width (the default: an Xid's text sits
    // far right of its syslog prefix) at most kMaxWrapRows rows each; off, they
    // run on under a horizontal scroll bar.
    void setWrap(bool on);
    bool wrap() const { return m_wrap; }
    static constexpr int kMaxWrapRows = 12;
    // Rows line `line0` (0-based) takes on screen: 1 unless wrapped.
    int rowsOf(uint64_t line0) const;
    // Next bookmark after (or before) the current line, wrapping; false if none.
    bool goToBookmark(bool forward = true);
    void setMarking(bool on) { m_marking = on; }

signals:
    void fileOpened(const QString& displayName);
    void fileClosed();  // close(): no file is shown
    void positionChanged(quint64 line);
    // A goToLine reached its line (1-based; the last line when asked past the
    // end): at once, or later when the background checkpoints or the index
    // got there (goToLinePending() turns false then).
    void goToLineLanded(quint64 line);
    void indexProgress(quint64 lines, bool complete);
    void bookmarkToggleRequested(quint64 line);
    // Quiz: the learner takes this line for the initiating event (offered only while setMarking(true)).
    void markRequested(quint64 line);
    void lineNoteRequested(quint64 line);

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void timerEvent(QTimerEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    void scrollContentsBy(int dx, int dy) override;
    void contextMenuEvent(QContextMenuEvent*) override;
    bool viewportEvent(QEvent*) override;

private:
    void updateScrollBars();
    void scrollToLine(uint64_t line);
    int gutterWidth() const;
    int lineHeight() const;
    int visibleLines() const;  // rows of the viewport: the most lines it can show
    int linesShownFrom(uint64_t first0) const;  // whole lines that fit from line first0 down
    int charsPerRow() const;
    void setCurrentLine(uint64_t line0);
    [[nodiscard]] bool jumpByCheckpoint(uint64_t line0);

    MappedFile m_file;  // read() or mapped under core's SIGBUS guard: a file truncated while shown cannot crash
    std::string_view m_data;
    RawLineIndex m_index;
    LineCheckpoints m_checkpoints;   // background: go-to-line never indexes the prefix on this thread
    std::optional<uint64_t> m_pendingLine;  // a go-to-line waiting for the checkpoints to reach it
    QString m_path, m_name, m_error;
    int m_indexTimer = 0;
    uint64_t m_currentLine = 0;  // 0-based
    uint64_t m_hlBegin = 0, m_hlEnd = 0;
    uint64_t m_matchBegin = 0, m_matchEnd = 0;
    // Vertical scrolling in lines; QScrollBar is int, so a file with more
    // lines than INT_MAX scrolls in proportional steps.
    uint64_t m_scrollUnit = 1;
    std::map<uint64_t, QString> m_bookmarks;
    bool m_wrap = true;
    bool m_marking = false;
};

} // namespace fl
