// SPDX-License-Identifier: MIT
#include "rawfileview.h"

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
    vb->setRange(0, static_cast<int>(lines > static_cast<uint64_t>(visibleLines())
                                         ? (lines - static_cast<uint64_t>(visibleLines())) / m_scrollUnit + 1
                                         : 0));
    vb->setPageStep(visibleLines());
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
    if (line0 > first && line0 + 1 < first + static_cast<uint64_t>(visibleLines())) {
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
    const uint64_t last = std::min(m_index.lineCount(), first + static_cast<uint64_t>(visibleLines()) + 1);
    const QColor hl(0xff, 0xf0, 0xa8), match(0xff, 0xa0, 0x40);
    for (uint64_t l = first; l < last; ++l) {
        const int y = static_cast<int>(l - first) * lh;
        const uint64_t ls = m_index.lineStart(l);
        const std::string_view bytes = m_index.line(l);
        const uint64_t le = ls + bytes.size();
        if (m_hlEnd > m_hlBegin && ls < m_hlEnd && le >= m_hlBegin)
            p.fillRect(QRect(gw, y, viewport()->width() - gw, lh), hl);
        if (l == m_currentLine) {
            p.setPen(palette().highlight().color());
            p.drawLine(gw, y + lh - 1, viewport()->width(), y + lh - 1);
        }
        const QString text = displayText(bytes);
        // Match span, in display columns of the line's prefix (monospace).
        if (m_matchEnd > m_matchBegin && m_matchBegin >= ls && m_matchBegin <= le) {
            const QString pre = displayText(bytes.substr(0, m_matchBegin - ls));
            const QString hit = displayText(bytes.substr(m_matchBegin - ls, m_matchEnd - m_matchBegin));
            p.fillRect(QRect(xText + fontMetrics().horizontalAdvance(pre), y, fontMetrics().horizontalAdvance(hit), lh),
                       match);
        }
        p.setPen(palette().text().color());
        p.setClipRect(gw, 0, viewport()->width() - gw, viewport()->height());
        p.drawText(xText, y + ascent, text);
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
    const uint64_t l = firstVisibleLine() + static_cast<uint64_t>(std::max(0, y) / lineHeight());
    return l < m_index.lineCount() ? l + 1 : 0;
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
    const uint64_t l = firstVisibleLine() + static_cast<uint64_t>(std::max(0, static_cast<int>(e->position().y()) / lineHeight()));
    if (l < m_index.lineCount()) {
        setCurrentLine(l);
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
