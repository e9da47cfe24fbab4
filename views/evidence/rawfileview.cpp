// SPDX-License-Identifier: MIT
#include "views/evidence/rawfileview.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QToolTip>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>
#include <cstring>
#include <climits>
#include <limits>
#include <functional>

namespace fl {

namespace {
constexpr uint64_t kIndexSlice = 32u << 20;   // ~10 ms of memchr per idle slice
constexpr int kMaxShownBytes = 4096;          // of one line; the rest is elided
constexpr int kMargin = 6;

inline unsigned char fold(unsigned char c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }

// Control bytes would paint as boxes or move the pen; show them as a dot.
QString displayText(std::string_view bytes)
{
    const bool elided = bytes.size() > static_cast<size_t>(kMaxShownBytes);
    QString s = QString::fromUtf8(bytes.data(), static_cast<qsizetype>(std::min<size_t>(bytes.size(), kMaxShownBytes)));
    for (QChar& c : s) {
        if (c == QLatin1Char('\t'))
            c = QLatin1Char(' ');
        else if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            c = QChar(0x00b7);
    }
    if (elided)
        s += QStringLiteral(" … (%1 more bytes)").arg(bytes.size() - kMaxShownBytes);
    return s;
}
} // namespace

RawFileView::RawFileView(QWidget* parent)
    : QAbstractScrollArea(parent)
{
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::TypeWriter);
    mono.setPointSizeF(font().pointSizeF() * 0.95);
    setFont(mono);
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setCursor(Qt::IBeamCursor);
}

bool RawFileView::open(const QString& diskPath, const QString& displayName)
{
    if (diskPath == m_path && (m_file.isOpen() || m_data.empty()) && m_error.isEmpty())
        return true;
    close();
    m_path = diskPath;
    m_name = displayName.isEmpty() ? diskPath : displayName;
    std::string error;
    if (!m_file.open(QFile::encodeName(diskPath).toStdString(), &error)) {
        m_error = tr("%1: %2").arg(m_name, QString::fromStdString(error));
        viewport()->update();
        return false;
    }
    m_data = m_file.data();
    m_checkpoints.start(m_data);
    m_index.reset(m_data);
    m_index.indexMore(kIndexSlice);
    if (!m_index.complete())
        m_indexTimer = startTimer(0);
    updateScrollBars();
    viewport()->update();
    emit fileOpened(m_name);
    emit indexProgress(m_index.lineCount(), m_index.complete());
    return true;
}

void RawFileView::close()
{
    if (m_indexTimer)
        killTimer(m_indexTimer);
    m_indexTimer = 0;
    m_checkpoints.stop();  // before the unmap: it reads the mapping
    m_pendingLine.reset();
    m_data = {};
    m_index.reset({});
    m_file = MappedFile();  // unmaps
    m_path.clear();
    m_name.clear();
    m_error.clear();
    m_currentLine = m_hlBegin = m_hlEnd = m_matchBegin = m_matchEnd = 0;
    m_bookmarks.clear();
    verticalScrollBar()->setValue(0);
    horizontalScrollBar()->setValue(0);
    viewport()->update();
    emit fileClosed();
}

void RawFileView::timerEvent(QTimerEvent* e)
{
    if (e->timerId() != m_indexTimer)
        return QAbstractScrollArea::timerEvent(e);
    if (m_pendingLine && jumpByCheckpoint(*m_pendingLine)) {
        m_pendingLine.reset();
        emit goToLineLanded(m_currentLine + 1);
    }
    const bool indexed = m_index.indexMore(kIndexSlice);
    // Under load the index can finish before the checkpoint thread reaches
    // the line; the timer stops then, so land the pending jump here.
    if (m_pendingLine && m_index.complete()) {
        const uint64_t l = std::min<uint64_t>(*m_pendingLine, m_index.lineCount() - 1);
        m_pendingLine.reset();
        setCurrentLine(l);
        scrollToLine(l);
        emit goToLineLanded(l + 1);
    }
    if (indexed) {
        killTimer(m_indexTimer);
        m_indexTimer = 0;
    }
    updateScrollBars();
    emit indexProgress(m_index.lineCount(), m_index.complete());
}

int RawFileView::lineHeight() const
{
    return fontMetrics().height() + 2;
}

int RawFileView::visibleLines() const
{
    return std::max(1, viewport()->height() / lineHeight());
}

int RawFileView::gutterWidth() const
{
    const uint64_t n = std::max<uint64_t>(m_index.lineCount(), 99999);
    return fontMetrics().horizontalAdvance(QString::number(n)) + 2 * kMargin + 10;  // + bookmark marker
}

void RawFileView::updateScrollBars()
{
    const uint64_t lines = m_index.lineCount();
    m_scrollUnit = std::max<uint64_t>(1, lines / INT_MAX + 1);
    auto* vb = verticalScrollBar();
    // Scrolled to the end, the last line sits on the last full row: rounding up
    // only when a scroll step is several lines (a "+ 1" here left a blank row under a short file).
    uint64_t tail = 0;  // lines that fit above the bottom edge, counted from the last
    for (int rows = 0; tail < lines && tail < static_cast<uint64_t>(visibleLines()); ++tail) {
        rows += rowsOf(lines - 1 - tail);
        if (rows > visibleLines())
            break;
    }
    const uint64_t beyond = lines - std::min(lines, std::max<uint64_t>(tail, 1));
    vb->setRange(0, static_cast<int>((beyond + m_scrollUnit - 1) / m_scrollUnit));
    vb->setPageStep(visibleLines());
    if (m_wrap) {
        horizontalScrollBar()->setRange(0, 0);
        return;
    }
    // Horizontal extent from the visible lines: measuring every line is what makes editors slow.
    int widest = 0;
    const uint64_t first = firstVisibleLine();
    for (uint64_t l = first; l < std::min(lines, first + static_cast<uint64_t>(visibleLines())); ++l)
        widest = std::max(widest, static_cast<int>(std::min<size_t>(m_index.line(l).size(), kMaxShownBytes + 30)));
    const int cw = fontMetrics().horizontalAdvance(QLatin1Char('m'));
    horizontalScrollBar()->setRange(0, std::max(0, widest * cw - (viewport()->width() - gutterWidth())));
    horizontalScrollBar()->setPageStep(viewport()->width());
    horizontalScrollBar()->setSingleStep(cw * 4);
}

int RawFileView::charsPerRow() const
{
    const int cw = std::max(1, fontMetrics().horizontalAdvance(QLatin1Char('m')));
    return std::max(16, (viewport()->width() - gutterWidth() - 2 * kMargin) / cw);
}

int RawFileView::rowsOf(uint64_t line0) const
{
    if (!m_wrap)
        return 1;
    const qsizetype chars = displayText(m_index.line(line0)).size();
    const qsizetype cpr = charsPerRow();
    return static_cast<int>(std::clamp<qsizetype>((chars + cpr - 1) / cpr, 1, kMaxWrapRows));
}

int RawFileView::linesShownFrom(uint64_t first0) const
{
    int n = 0;
    for (int rows = 0; first0 + static_cast<uint64_t>(n) < m_index.lineCount(); ++n) {
        rows += rowsOf(first0 + static_cast<uint64_t>(n));
        if (rows > visibleLines())
            break;
    }
    return n;
}

void RawFileView::setWrap(bool on)
{
    if (m_wrap == on)
        return;
    m_wrap = on;
    horizontalScrollBar()->setValue(0);
    updateScrollBars();
    scrollToLine(m_currentLine);
    viewport()->update();
}

void RawFileView::resizeEvent(QResizeEvent* e)
{
    QAbstractScrollArea::resizeEvent(e);
    updateScrollBars();
}

uint64_t RawFileView::firstVisibleLine() const
{
    return static_cast<uint64_t>(verticalScrollBar()->value()) * m_scrollUnit;
}

void RawFileView::scrollContentsBy(int dx, int dy)
{
    // The horizontal extent is measured on the visible lines: re-measure after a vertical move.
    if (dy != 0)
        updateScrollBars();
    QAbstractScrollArea::scrollContentsBy(dx, dy);
}

void RawFileView::scrollToLine(uint64_t line0)
{
    // Moving within the page (arrow keys, a nearby match) must not jump the view.
    const uint64_t first = firstVisibleLine();
    if (line0 > first && line0 + 1 < first + static_cast<uint64_t>(linesShownFrom(first))) {
        viewport()->update();
        return;
    }
    // A few lines of context above the target.
    const uint64_t ctx = static_cast<uint64_t>(visibleLines()) / 4;
    const uint64_t top = line0 > ctx ? line0 - ctx : 0;
    updateScrollBars();
    verticalScrollBar()->setValue(static_cast<int>(std::min<uint64_t>(top / m_scrollUnit, INT_MAX)));
    updateScrollBars();
    viewport()->update();
}

void RawFileView::setCurrentLine(uint64_t line0)
{
    m_currentLine = line0;
    emit positionChanged(line0 + 1);
}

void RawFileView::goToLine(uint64_t line)
{
    if (m_data.empty())
        return;
    const uint64_t target = line > 0 ? line - 1 : 0;
    m_pendingLine.reset();
    // Beyond the indexed prefix: from the nearest background checkpoint, or
    // once the checkpoints get there (the index timer polls). Never a
    // synchronous index of the prefix here: on a 1 GB log that froze the window.
    if (!m_index.known(target) && !m_index.complete()) {
        if (!jumpByCheckpoint(target)) {
            m_pendingLine = target;
            if (!m_indexTimer)
                m_indexTimer = startTimer(0);
            return;
        }
        emit goToLineLanded(m_currentLine + 1);
        return;
    }
    const uint64_t l = std::min<uint64_t>(target, m_index.lineCount() - 1);
    setCurrentLine(l);
    scrollToLine(l);
    emit goToLineLanded(l + 1);
}

bool RawFileView::jumpByCheckpoint(uint64_t target)
{
    const auto [cpLine, cpOffset] = m_checkpoints.nearest(target);
    const bool done = m_checkpoints.complete();
    if (!done && target - cpLine >= LineCheckpoints::kEvery)
        return false;  // the scan has not reached it yet
    // At most kEvery lines from the checkpoint (a line past the end stops at the last).
    uint64_t pos = cpOffset, l = cpLine;
    while (l < target) {
        const void* nl = std::memchr(m_data.data() + pos, '\n', m_data.size() - pos);
        if (!nl)
            break;
        const uint64_t next = static_cast<uint64_t>(static_cast<const char*>(nl) - m_data.data()) + 1;
        if (next >= m_data.size())
            break;
        pos = next;
        ++l;
    }
    if (!m_index.known(l)) {
        m_index.setWindow(pos, l, static_cast<uint64_t>(visibleLines()) * 4 + 64);
        updateScrollBars();
    }
    setCurrentLine(l);
    scrollToLine(l);
    return true;
}

void RawFileView::showRef(const RawRef& ref)
{
    if (m_data.empty() || ref.offset >= m_data.size()) {
        m_hlBegin = m_hlEnd = 0;
        viewport()->update();
        return;
    }
    // The byte offset is the truth; the line number comes from our own index.
    m_hlBegin = ref.offset;
    m_hlEnd = std::min<uint64_t>(m_data.size(), ref.offset + std::max<uint32_t>(ref.length, 1));
    // Beyond the indexed prefix, show the lines around the evidence now
    // (numbered from the ref) instead of indexing up to it first.
    if (ref.offset >= m_index.scanned() && ref.line > 0) {
        m_index.setWindow(ref.offset, ref.line - 1, static_cast<uint64_t>(visibleLines()) * 4 + 64);
        updateScrollBars();
    }
    const uint64_t l = m_index.lineOf(ref.offset);
    setCurrentLine(l);
    scrollToLine(l);
}

QString RawFileView::lineText(uint64_t line) const
{
    return line == 0 ? QString() : displayText(m_index.line(line - 1));
}

bool RawFileView::find(const QString& text, bool forward, bool caseSensitive)
{
    if (text.isEmpty() || m_data.empty())
        return false;
    const QByteArray needle = text.toUtf8();
    auto eq = [caseSensitive](char a, char b) {
        return caseSensitive ? a == b : fold(static_cast<unsigned char>(a)) == fold(static_cast<unsigned char>(b));
    };
    const char* b = m_data.data();
    const char* e = b + m_data.size();
    const bool haveMatch = m_matchEnd > m_matchBegin;
    const char* hit = e;
    if (forward) {
        const uint64_t from = haveMatch ? m_matchBegin + 1 : m_index.lineStart(m_currentLine);
        hit = std::search(b + std::min<uint64_t>(from, m_data.size()), e, needle.begin(), needle.end(), eq);
        if (hit == e)  // wrap around once
            hit = std::search(b, e, needle.begin(), needle.end(), eq);
    } else {
        const uint64_t before = haveMatch ? m_matchBegin : m_index.lineStart(m_currentLine);
        const char* stop = b + std::min<uint64_t>(before + needle.size() - 1, m_data.size());
        hit = std::find_end(b, stop, needle.begin(), needle.end(), eq);
        if (hit == stop)
            hit = std::find_end(b, e, needle.begin(), needle.end(), eq);
        if (hit == stop || hit == e)
            hit = e;
    }
    if (hit == e)
        return false;
    m_matchBegin = static_cast<uint64_t>(hit - b);
    m_matchEnd = m_matchBegin + static_cast<uint64_t>(needle.size());
    const uint64_t l = m_index.lineOf(m_matchBegin);
    setCurrentLine(l);
    scrollToLine(l);
    return true;
}

void RawFileView::paintEvent(QPaintEvent*)
{
    QPainter p(viewport());
    p.fillRect(viewport()->rect(), palette().base());
    const int gw = gutterWidth();
    p.fillRect(QRect(0, 0, gw, viewport()->height()), palette().window());
    // Truncated or replaced on disk while shown: the mapped bytes are zeros now, not the file.
    if (m_error.isEmpty() && m_file.isOpen() && m_file.changed())
        m_error = tr("%1 changed on disk while shown (%2); open it again").arg(m_name, QString::fromStdString(m_file.changeReason()));
    if (!m_error.isEmpty() || m_path.isEmpty()) {
        p.setPen(m_error.isEmpty() ? palette().placeholderText().color() : QColor(0xb0, 0x00, 0x20));
        p.drawText(viewport()->rect().adjusted(gw + kMargin, 0, 0, 0), Qt::AlignCenter | Qt::TextWordWrap,
                   m_error.isEmpty() ? tr("Select evidence to see its raw lines") : m_error);
        return;
    }
    const int lh = lineHeight();
    const int ascent = fontMetrics().ascent() + 1;
    const int xText = gw + kMargin - horizontalScrollBar()->value();
    const uint64_t first = firstVisibleLine();
    const QColor hl(0xff, 0xf0, 0xa8), match(0xff, 0xa0, 0x40);
    const int cw = fontMetrics().horizontalAdvance(QLatin1Char('m'));
    const qsizetype cpr = m_wrap ? charsPerRow() : std::numeric_limits<int>::max();
    int y = 0;
    for (uint64_t l = first; l < m_index.lineCount() && y < viewport()->height(); ++l) {
        const int rows = rowsOf(l);
        const int h = rows * lh;
        const uint64_t ls = m_index.lineStart(l);
        const std::string_view bytes = m_index.line(l);
        const uint64_t le = ls + bytes.size();
        if (m_hlEnd > m_hlBegin && ls < m_hlEnd && le >= m_hlBegin)
            p.fillRect(QRect(gw, y, viewport()->width() - gw, h), hl);
        if (l == m_currentLine) {
            p.setPen(palette().highlight().color());
            p.drawLine(gw, y + h - 1, viewport()->width(), y + h - 1);
        }
        const QString text = displayText(bytes);
        // Match span, in display columns of the line's prefix (monospace), one rectangle per row it covers.
        if (m_matchEnd > m_matchBegin && m_matchBegin >= ls && m_matchBegin <= le) {
            const qsizetype from = displayText(bytes.substr(0, m_matchBegin - ls)).size();
            const qsizetype to = from + displayText(bytes.substr(m_matchBegin - ls, m_matchEnd - m_matchBegin)).size();
            for (qsizetype c = from; c < to;) {
                const qsizetype row = c / cpr, rowEnd = std::min(to, (row + 1) * cpr);
                if (row >= rows)
                    break;
                p.fillRect(QRect(xText + static_cast<int>((c - row * cpr) * cw), y + static_cast<int>(row) * lh,
                                 static_cast<int>((rowEnd - c) * cw), lh), match);
                c = rowEnd;
            }
        }
        p.setPen(palette().text().color());
        p.setClipRect(gw, 0, viewport()->width() - gw, viewport()->height());
        for (int r = 0; r < rows; ++r) {
            QString part = m_wrap ? text.mid(r * cpr, cpr) : text;
            if (m_wrap && r == rows - 1 && text.size() > rows * cpr)  // more than kMaxWrapRows rows: say it goes on
                part = part.left(cpr - 1) + QChar(0x2026);
            p.drawText(xText, y + r * lh + ascent, part);
        }
        p.setClipping(false);
        if (const auto bm = m_bookmarks.find(l + 1); bm != m_bookmarks.end()) {
            // Bookmark: amber bar in the gutter; a dot when it carries a note.
            p.fillRect(QRect(0, y + 1, 5, lh - 2), QColor(0xff, 0xb3, 0x00));
            if (!bm->second.isEmpty()) {
                p.setRenderHint(QPainter::Antialiasing, true);
                p.setBrush(QColor(0xe6, 0x51, 0x00));
                p.setPen(Qt::NoPen);
                p.drawEllipse(QPointF(10, y + lh / 2.0), 3, 3);
                p.setRenderHint(QPainter::Antialiasing, false);
                p.setBrush(Qt::NoBrush);
            }
        }
        p.setPen(l == m_currentLine ? palette().text().color() : palette().placeholderText().color());
        p.drawText(QRect(0, y, gw - kMargin, lh), Qt::AlignRight | Qt::AlignVCenter, QString::number(l + 1));
        y += h;
    }
    if (!m_index.complete()) {
        p.setPen(palette().placeholderText().color());
        p.drawText(viewport()->rect().adjusted(0, 0, -8, -4), Qt::AlignRight | Qt::AlignBottom,
                   tr("indexing… %1%").arg(m_index.scanned() * 100 / std::max<uint64_t>(m_data.size(), 1)));
    }
}

void RawFileView::setBookmarks(std::map<uint64_t, QString> bookmarks)
{
    m_bookmarks = std::move(bookmarks);
    viewport()->update();
}

uint64_t RawFileView::lineAtY(int y) const
{
    // Walks the rows from the top: a wrapped line is several rows tall.
    int top = 0;
    for (uint64_t l = firstVisibleLine(); l < m_index.lineCount() && top < viewport()->height(); ++l) {
        top += rowsOf(l) * lineHeight();
        if (std::max(0, y) < top)
            return l + 1;
    }
    return 0;
}

bool RawFileView::goToBookmark(bool forward)
{
    if (m_bookmarks.empty() || m_data.empty())
        return false;
    const uint64_t cur = m_currentLine + 1;
    auto it = forward ? m_bookmarks.upper_bound(cur) : m_bookmarks.lower_bound(cur);
    if (forward) {
        if (it == m_bookmarks.end())
            it = m_bookmarks.begin();
    } else {
        it = it == m_bookmarks.begin() ? std::prev(m_bookmarks.end()) : std::prev(it);
    }
    goToLine(it->first);
    return true;
}

void RawFileView::contextMenuEvent(QContextMenuEvent* e)
{
    const uint64_t line = e->reason() == QContextMenuEvent::Mouse ? lineAtY(e->pos().y()) : m_currentLine + 1;
    if (line == 0 || m_data.empty())
        return;
    setCurrentLine(line - 1);
    viewport()->update();
    const bool marked = m_bookmarks.count(line) > 0;
    QMenu menu(this);
    if (m_marking) {
        menu.addAction(tr("Mark line %1 as the initiating event").arg(line), this, [this, line] { emit markRequested(line); });
        menu.addSeparator();
    }
    menu.addAction(marked ? tr("Remove bookmark on line %1").arg(line) : tr("Bookmark line %1").arg(line), this,
                   [this, line] { emit bookmarkToggleRequested(line); });
    menu.addAction(marked && !m_bookmarks.at(line).isEmpty() ? tr("Edit note on line %1…").arg(line)
                                                             : tr("Add note to line %1…").arg(line),
                   this, [this, line] { emit lineNoteRequested(line); });
    if (!m_bookmarks.empty()) {
        menu.addSeparator();
        menu.addAction(tr("Next bookmark"), this, [this] { goToBookmark(true); });
        menu.addAction(tr("Previous bookmark"), this, [this] { goToBookmark(false); });
    }
    menu.exec(e->globalPos());
}

bool RawFileView::viewportEvent(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        const auto* he = static_cast<QHelpEvent*>(e);
        const uint64_t line = lineAtY(he->pos().y());
        const auto it = m_bookmarks.find(line);
        if (it != m_bookmarks.end())
            QToolTip::showText(he->globalPos(), it->second.isEmpty() ? tr("Bookmarked line %1").arg(line)
                                                                     : tr("Line %1: %2").arg(line).arg(it->second), viewport());
        else
            QToolTip::hideText();
        return true;
    }
    return QAbstractScrollArea::viewportEvent(e);
}

void RawFileView::mousePressEvent(QMouseEvent* e)
{
    if (const uint64_t line = lineAtY(static_cast<int>(e->position().y())); line > 0) {
        setCurrentLine(line - 1);
        viewport()->update();
    }
}

void RawFileView::keyPressEvent(QKeyEvent* e)
{
    switch (e->key()) {
    case Qt::Key_Up:
        if (m_currentLine > 0)
            goToLine(m_currentLine);  // 1-based argument: the line above
        return;
    case Qt::Key_Down:
        goToLine(m_currentLine + 2);
        return;
    case Qt::Key_Home:
        if (e->modifiers() & Qt::ControlModifier)
            return goToLine(1);
        break;
    case Qt::Key_End:
        if (e->modifiers() & Qt::ControlModifier) {
            while (!m_index.complete())
                m_index.indexMore(kIndexSlice);
            return goToLine(m_index.lineCount());
        }
        break;
    default:
        break;
    }
    QAbstractScrollArea::keyPressEvent(e);
}

} // namespace fl
