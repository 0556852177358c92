# Тексты страницы и сервера по-русски. Те же сообщения, что в en.ftl. Нотация (a1-h8, c3-d4,
# e5:c3) не переводится.

## Рамка страницы: заголовок, настройки, несуществующие страницы

site-name = Башни
nav-lobby = Лобби
nav-tournaments = Турниры
nav-new-game = Новая партия
nav-study = Доска для анализа
nav-leaderboard = Рейтинг
needs-javascript = Для этой страницы нужен JavaScript.
page-not-found = Страница не найдена
page-not-found-back = На главную страницу

settings = Настройки
settings-page-colours = Цвета страницы
settings-scheme-system = Как в системе
settings-scheme-light = Светлые
settings-scheme-dark = Тёмные
settings-board-colours = Цвета доски
settings-board-wood = Дерево
settings-board-green = Зелёная
settings-board-grey = Серая
settings-board-size = Размер доски
settings-sounds = Звуки
settings-language = Язык

## Главная страница

home-new-game = Новая партия
home-play = Играть
home-mode-engine = С компьютером
home-mode-friend = С другом (по ссылке-приглашению)
home-mode-local = Вдвоём за одним экраном
home-game = Игра
home-variant-bashni = Башни (столбовые шашки)
home-variant-russian = Русские шашки
home-level = Уровень компьютера
home-colour = Ваш цвет
home-colour-white = Белые
home-colour-black = Чёрные
home-colour-random = Случайно
home-clock = Часы
home-correspondence = По переписке (дни на ход)
home-days =
    { $days ->
        [one] { $days } день
        [few] { $days } дня
       *[many] { $days } дней
    }
home-days-per-move = Дней на ход
home-days-per-move-hint = Столько может длиться каждый ход. Неиспользованное время не переносится.
home-your-name = Ваше имя
home-first-player-name = Имя первого игрока (белые)
home-second-player = Второй игрок
home-second-player-name = Имя второго игрока
home-account-name = Имя вашей учётной записи.
home-rated = На рейтинг
home-start = Начать партию
home-pdn-title = Открыть записи партий (PDN)
home-pdn-file = Файл PDN
home-pdn-paste = Или вставьте сюда текст PDN
home-pdn-upload = Загрузить
home-pdn-nothing = Выберите файл или вставьте текст PDN.
home-pdn-none-found = В тексте не найдено ни одной партии.
home-pdn-game = Партия { $number }
home-pdn-game-error = Партия { $number }: { $error }
home-pdn-unreadable = не читается
home-your-games = Ваши партии
home-your-games-none = Пока нет.
home-live-games = Идут сейчас
home-live-games-none = Сейчас никто не играет.
home-finished-games = Сыгранные партии
home-finished-games-none = Партий пока нет.
home-records = Записи партий
home-records-none = Записей пока не загружали.
home-loading = Загрузка…
home-more = Ещё
home-lobby-title = Сыграть с человеком
home-lobby-text = Найдите соперника в лобби: примите вызов или сделайте свой.
home-lobby-link = В лобби
home-study-title = Анализ
home-study-text = Расставьте любую позицию, стройте башни, смотрите варианты и спрашивайте компьютер.
home-study-link = Открыть доску для анализа

## Партия в списке

game-item-white = Белые
game-item-black = Чёрные
game-item-in-play = идёт
game-item-aborted = прервана
game-item-moves =
    { $moves ->
        [one] { $moves } ход
        [few] { $moves } хода
       *[many] { $moves } ходов
    }

## Study, analysis, chat, accounts (study.js, analysis-board.js, analysis.js, tree.js, chat.js, join.js, login.js, account.js, board.js, towers.js, dom.js, api.js, sound.js)

study-page-title = Доска для анализа – Башни
study-heading = Доска для анализа
study-board-label = Доска для анализа. Стрелки переводят с поля на поле, Enter ставит туда выбранную шашку.
study-inspector-hint = Нажмите на поле, чтобы поставить шашку в низ его башни.
study-side-to-move = Чей ход
study-white-to-move = Ход белых
study-black-to-move = Ход чёрных
study-brush = Что ставить
study-brush-white-man = Белая простая
study-brush-white-king = Белая дамка
study-brush-black-man = Чёрная простая
study-brush-black-king = Чёрная дамка
study-brush-pop = Снять верхнюю
study-brush-erase = Очистить поле
study-brush-hint = Шашка встаёт в низ башни, поэтому собирайте каждую башню сверху вниз.
study-start-position = Начальная позиция
study-empty-board = Пустая доска
study-position = Позиция
study-paste-position = Вставьте позицию в любой записи
study-set-up = Расставить
study-engine-view = Оценка компьютера
study-analyse = Оценить
study-analysis-board = Анализ
study-play-from-here = Играть с этой позиции
study-need-position = Сначала расставьте допустимую позицию.

analysis-page-title = Анализ – Башни
analysis-heading = Анализ
analysis-board-label = Доска анализа. Стрелки переводят с поля на поле, Enter берёт башню и ставит её.
analysis-no-move-there = Туда нельзя пойти.
analysis-start-page = На главную
analysis-after-game = Анализ этой партии откроется, когда она закончится.
analysis-variation-lost = Не удалось показать вариант из записи: { $error }
analysis-inspector-hint = Наведите на башню, чтобы увидеть, из чего она состоит.
analysis-white = Белые
analysis-black = Чёрные
analysis-title-game = { $variant }: { $white } – { $black }
analysis-title-position = { $variant }, позиция
analysis-first = « В начало
analysis-first-title = В начало (Home)
analysis-prev = ‹ Назад
analysis-prev-title = Назад (←)
analysis-next = Вперёд ›
analysis-next-title = Вперёд (→)
analysis-last = В конец »
analysis-last-title = В конец варианта (End)
analysis-engine = Компьютер
analysis-promote = Сделать главным вариантом
analysis-delete = Удалить отсюда
analysis-graph = График оценки
analysis-position = Позиция
analysis-announce =
    { $colour ->
        [black] Чёрные
       *[white] Белые
    }: { $move }.
analysis-picture-png = Картинка (PNG)
analysis-picture-svg = Картинка (SVG)
analysis-game-gif = Партия (GIF)
analysis-game-pdn = Партия (PDN)
analysis-engine-off = Компьютер выключен.
analysis-thinking = Компьютер думает…
analysis-game-over = Ходов нет: здесь партия окончена.
analysis-play-line = Сыграть этот вариант на доске
analysis-scores-hint =
    Оценки даны для белых, в шашках; ход { $turn ->
        [black] чёрных
       *[white] белых
    }.
analysis-depth = глубина { $depth }
analysis-summary =
    Глубина { $depth }, { $nodes ->
        [one] { $nodes } позиция
        [few] { $nodes } позиции
       *[many] { $nodes } позиций
    }. Оценки в шашках (1.00 = одна простая); плюс — в пользу названной стороны.
analysis-score-for =
    за { $turn ->
        [black] чёрных
       *[white] белых
    }
analysis-score-for-black = за чёрных ({ $white } за белых)
analysis-play-line-on-board = Сыграть этот вариант на доске для анализа
analysis-eval-label = Оценка для белых: { $score }
analysis-no-eval = Оценки пока нет
analysis-graph-label = Оценка по ходу партии

chat = Чат
chat-watchers-chat = Чат зрителей
chat-room-players = Игроки
chat-room-watchers = Зрители
chat-placeholder = Напишите сообщение
chat-message = Сообщение
chat-your-name = Ваше имя
chat-your-name-label = Ваше имя в чате
chat-send = Отправить
chat-none-players = Игроки пока ничего не писали.
chat-none-watchers = Зрители пока ничего не писали.
chat-only-watchers = Здесь пишут только зрители.
chat-mute = Скрыть сообщения игрока { $name }
chat-unmute = Показывать сообщения игрока { $name }
chat-mute-opponent = Скрыть сообщения соперника
chat-unmute-opponent = Показывать сообщения соперника

join-page-title = Приглашение в партию – Башни
join-invited = Вас приглашают сыграть партию
join-your-name = Ваше имя
join-button = Сесть за партию
join-watch = Только смотреть партию
join-have-seat = Вы уже играете в этой партии.
join-go-to-game = Перейти к партии
join-a-player = Игрок
join-invites =
    { $name } приглашает вас сыграть: { $variant }. Вы играете { $colour ->
        [black] чёрными
       *[white] белыми
    }.
join-invites-per-move =
    { $name } приглашает вас сыграть: { $variant }, { $perMove }. Вы играете { $colour ->
        [black] чёрными
       *[white] белыми
    }.
join-no-game = Такой партии нет
join-link-wrong = Ссылка-приглашение неверна, или партии больше нет.
join-new-game = Начать новую партию
join-seat-taken = Место уже занято. { $error }

login-page-title = Вход – Башни
login-title = Вход
login-submit = Войти
login-name = Имя
login-password = Пароль
login-new-account = Новая учётная запись
login-name-hint = От 3 до 20 букв или цифр, также _ и -. Его видят другие рядом с вашими партиями.
login-password-hint = Не меньше 8 знаков.
login-password-again = Пароль ещё раз
login-make-account = Создать учётную запись
login-passwords-differ = Пароли не совпадают.
login-without-account = Играть можно и без учётной записи. С ней ваши партии и результаты хранятся на вашей странице.
login-logged-in-as = Вы вошли как { $name }.

account-log-in = Войти
account-log-out = Выйти
account-player = Учётная запись игрока
account-deleted = удалённый игрок

board-label = Доска. Стрелки переводят с поля на поле, Enter берёт башню и ставит её.
board-role = шашечная доска

dom-copied = Скопировано.
dom-copy-by-hand = Выделите ссылку и скопируйте её.

api-unreachable = Не удаётся связаться с сервером.
api-status = Сервер ответил: { $status }.
